// A refused act's page is answered at the act's address: put the table page's address back in the browser's bar,
// so that the next GET form without an action of its own («show the odds») or a reload goes to the table's page
// (larp/tables/acts.py).
(function () {
  "use strict";
  var mark = document.querySelector("[data-act-back]");
  if (mark && window.history && history.replaceState) {
    history.replaceState(null, "", mark.getAttribute("data-act-back") + window.location.hash);
  }
})();
