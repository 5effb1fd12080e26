"""Russian that agrees: the one helper every log, protocol and page sentence uses for case, number and agreement.

Names come from data (factions, units, players, territories) and sit inside translated sentences. In Russian
they must be declined («Болгария против Латинской империи»), and the words around them must agree with them
(«Гипасписты уничтожены», «Арбалетчики бегут», «60 фигурок на 32 фигурки», ««Арбалетчики» стреляют по
«Фаланге»»). This module does it with pymorphy3 and its Russian dictionary:

- `decline(name, case)`      a name (one word or several, in «quotes» or not) in a case: nomn, gent, datv,
                             accs, ablt, loct;
- `agree(word, name)`        a verb, a short participle or an adjective («бежит», «уничтожен») agreeing with
                             the name's gender and number;
- `counted(n, word)`         «32 фигурки»: a number with its noun in the agreeing form;
- `grammar(name)`            the name's gender and number (the data's word first, else the dictionary's guess);
- `versus(names)`            «Болгария против Латинской империи»; «Анна, Борис и Вера» with more than two;
- `say(text)`                a translated sentence, filled, with the marks its Russian carries resolved:
                             `{%(target)s|datv}` declines the name, `{стреляет~%(unit)s}` agrees the word with
                             the name, `{фигурка#%(n)s}` gives the noun the form the number wants
                             (`{фигурка#%(n)s|gent}` after «из», «до»: «из 21 фигурки»). So a
                             sentence agrees by its translation alone: «%(unit)s {стреляет~%(unit)s} по
                             {%(target)s|datv}». English has no marks: `say` leaves it as it is.

In any other language each is the identity (English: the name and the word as they are; `counted` adds an «s»).
The analyser is created once, lazily, on the first Russian call. Where the dictionary cannot guess a name's
gender or number (an invented name, a foreign word), the data says it: `larp/ru_names.yaml`
(name -> {gender: masc|femn|neut, number: sing|plur, fixed: true for a name that is not declined}).
"""
from __future__ import annotations

import re
import threading
from functools import lru_cache
from pathlib import Path

from django.utils.translation import get_language
from django.utils.translation import gettext as _

CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
_NAMES_FILE = Path(__file__).with_name("ru_names.yaml")
_lock = threading.Lock()
_analyzer = None
_names: dict | None = None
_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")


def russian() -> bool:
    return (get_language() or "ru").lower().startswith("ru")


def morph():
    """The one MorphAnalyzer of the process (loading the dictionary takes a moment: done once, on first use)."""
    global _analyzer
    if _analyzer is None:
        with _lock:
            if _analyzer is None:
                import pymorphy3
                _analyzer = pymorphy3.MorphAnalyzer()
    return _analyzer


def known() -> dict:
    """The data's grammar of names the dictionary cannot guess (larp/ru_names.yaml), read once."""
    global _names
    if _names is None:
        import yaml
        data = yaml.safe_load(_NAMES_FILE.read_text(encoding="utf-8")) if _NAMES_FILE.exists() else None
        _names = {str(k).strip().lower(): v or {} for k, v in (data or {}).items()}
    return _names


def _unquote(name: str) -> tuple[str, str, str]:
    name = name.strip()
    for left, right in (("«", "»"), ('"', '"'), ("„", "“")):
        if len(name) > 1 and name.startswith(left) and name.endswith(right):
            return left, name[len(left):-len(right)], right
    return "", name, ""


def _like(original: str, word: str) -> str:
    """The inflected word with the original's capitals."""
    if original.isupper() and len(original) > 1:
        return word.upper()
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _nominative(word: str, pos: tuple = ("NOUN",)):
    """The word's likeliest parse as a nominative of one of `pos` (None if it is not one)."""
    for parse in morph().parse(word.lower()):
        if parse.tag.POS in pos and ("nomn" in parse.tag or "Fixd" in parse.tag):
            return parse
    return None


def _head(words: list[str]):
    """(index, parse) of the name's head noun: the first nominative noun (adjectives before it agree with it)."""
    for i, w in enumerate(words):
        if not _WORD.fullmatch(w):
            continue
        parse = _nominative(w)
        if parse is not None and not (i + 1 < len(words) and parse.tag.POS == "ADJF"):
            return i, parse
    return None, None


def grammar(name: str) -> dict:
    """{"gender": masc|femn|neut|None, "number": sing|plur}: the data's, else the head noun's."""
    _l, inner, _r = _unquote(str(name))
    return dict(_grammar(inner, russian()))


@lru_cache(maxsize=4096)
def _grammar(inner: str, in_russian: bool) -> tuple:
    """grammar() of a name without its quotes, as (key, value) pairs: a page names the same units many times, and
    the dictionary's parse is the dearest part of a sentence."""
    entry = known().get(inner.lower())
    if not entry:   # a name with a number or more words after it: «Асигару с аркебузами 3» -> «Асигару»
        entry = next((known()[w.lower()] for w in inner.split()[:1] if w.lower() in known()), None)
    if entry and entry.get("number"):
        return tuple({"gender": entry.get("gender"), "number": entry["number"]}.items())
    if not in_russian or not inner:
        return tuple({"gender": None, "number": "sing"}.items())
    i, head = _head(inner.split())
    if head is None:
        return tuple({"gender": (entry or {}).get("gender"), "number": "sing"}.items())
    plural = "plur" in head.tag or "Pltm" in head.tag
    gender = (entry or {}).get("gender") or head.tag.gender
    return tuple({"gender": gender, "number": "plur" if plural else "sing"}.items())


@lru_cache(maxsize=4096)
def _decline(inner: str, case: str) -> str:
    entry = known().get(inner.lower()) or {}
    first = inner.split()[0].lower() if inner.split() else ""
    if entry.get("fixed") or (known().get(first) or {}).get("fixed"):
        return inner
    words = inner.split()
    i, head = _head(words)
    if head is None:
        return inner
    number = "plur" if ("plur" in head.tag or "Pltm" in head.tag) else "sing"
    out = list(words)
    form = head.inflect({case})
    if form is not None:
        out[i] = _like(words[i], form.word)
    for j in range(i):   # the adjectives before the head agree with it
        parse = _nominative(words[j], ("ADJF", "PRTF")) if _WORD.fullmatch(words[j]) else None
        if parse is None:
            continue
        grams = {case, number} | ({head.tag.gender} if number == "sing" and head.tag.gender else set())
        if case == "accs" and "anim" in head.tag:
            grams.add("anim")
        form = parse.inflect(grams)
        if form is not None:
            out[j] = _like(words[j], form.word)
    return " ".join(out)


def decline(name, case: str) -> str:
    """The name in a case («Латинская империя», gent -> «Латинской империи»); quotes kept; identity in English."""
    name = str(name)
    if case not in CASES:
        raise ValueError(f"unknown case {case!r}")
    if case == "nomn" or not russian() or not name.strip():
        return name
    left, inner, right = _unquote(name)
    return left + _decline(inner, case) + right


@lru_cache(maxsize=2048)
def _agree(word: str, number: str, gender: str | None) -> str:
    parts = word.split(" ", 1)
    first, rest = parts[0], (" " + parts[1] if len(parts) > 1 else "")
    order = ("VERB", "PRTS", "ADJS", "ADJF", "PRTF")   # «рассеян»: the participle, not «рассеянный» (absent-minded)
    parses = sorted((x for x in morph().parse(first.lower()) if x.tag.POS in order), key=lambda x: order.index(x.tag.POS))
    for parse in parses:
        pos = parse.tag.POS
        past_like = pos in ("PRTS", "ADJS", "ADJF", "PRTF") or "past" in parse.tag
        if number == "plur":
            grams = {"plur"}
        elif past_like:
            grams = {"sing", gender or "masc"}
        else:
            grams = {"sing"}
        form = parse.inflect(grams)
        if form is not None:
            return _like(first, form.word) + rest
        break
    return word


def agree(word, name) -> str:
    """The verb, short participle or adjective («бежит», «уничтожен») in the form that agrees with the name
    («Арбалетчики бегут», «Фаланга уничтожена»); a phrase agrees by its first word; identity in English."""
    word = str(word)
    if not russian() or not word:
        return word
    g = grammar(name)
    return _agree(word, g["number"], g["gender"])


@lru_cache(maxsize=1024)
def _counted(n: int, word: str, case: str = "nomn") -> str:
    parse = _nominative(word, ("NOUN",))
    if parse is None:
        return word
    if case != "nomn":
        parse = parse.inflect({case}) or parse
    form = parse.make_agree_with_number(abs(n))
    return form.word if form is not None else word


def counted(n, word, case: str = "nomn") -> str:
    """«32 фигурки», «60 фигурок», «1 фигурка»: the number and its noun (given in the nominative singular);
    after a preposition wanting the genitive, case="gent": «из 21 фигурки», «из 32 фигурок»."""
    word = str(word)
    if not russian():
        return f"{n} {word}" if n == 1 or word.endswith("s") else f"{n} {word}s"
    return f"{n} {_counted(int(n), word, case)}"


def versus(names) -> str:
    """Two sides: «Болгария против Латинской империи»; more: «Анна, Борис и Вера»."""
    names = [str(n) for n in names]
    if len(names) == 2:
        return _("%(a)s against %(b)s") % {"a": names[0], "b": decline(names[1], "gent")}
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


_CASE_MARK = re.compile(r"\{([^{}|~#]+)\|(nomn|gent|datv|accs|ablt|loct)\}")
_AGREE_MARK = re.compile(r"\{([^{}|~#]+)~([^{}]+)\}")
_COUNT_MARK = re.compile(r"\{([^{}|~#]+)#(-?\d+)(?:\|(nomn|gent|datv|accs|ablt|loct))?\}")


def say(text) -> str:
    """The filled sentence with its agreement marks resolved (see the module's doc); a text without marks as it is."""
    text = str(text)
    if "{" not in text:
        return text
    text = _AGREE_MARK.sub(lambda m: agree(m.group(1), m.group(2)), text)
    text = _COUNT_MARK.sub(lambda m: _counted(int(m.group(2)), m.group(1), m.group(3) or "nomn") if russian()
                           else m.group(1), text)
    return _CASE_MARK.sub(lambda m: decline(m.group(1), m.group(2)), text)


def agreeing(function):
    """A decorator for a function that builds a sentence: its result goes through `say` (one line per system)."""
    from functools import wraps

    @wraps(function)
    def wrapper(*args, **kwargs):
        return say(function(*args, **kwargs))
    return wrapper
