"""The scenario editor in the browser (moderators): a draft scenario built on a map picture, checked as it is
edited by larp.scenarios.validate, tried on the pure engine, and made into a game by larp.scenarios.loader."""
