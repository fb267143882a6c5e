"""The rules search: BM25 over words and character n-grams, in memory (tantivy).

Why this search (docs/search.md has the figures): the documents are the 44 clauses of the
rules reference with what teaches them, in three languages; the questions are short,
typed fast, often misspelt, in any of the three languages, and Japanese has no spaces.
Character n-grams find a misspelt word and Japanese without a word splitter (2-grams of
kana and kanji); whole words weigh more where they match. tantivy ranks them by BM25 in
the process itself, from an index built once per process (a few milliseconds), so the
answers are the same whatever the database (SQLite or PostgreSQL) and no service has to
run. The words players use ("squid", 親, verklingelt) are mapped to the site's words by
the player-word lists (:mod:`tutorials.search.words`) before the index is asked.

:func:`search` gives the clauses ranked, each with its score and the words that matched;
below :data:`THRESHOLD` nothing is an answer (the page then says the rules do not say,
and shows the closest clauses).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import tantivy

from tutorials.search.documents import LANGUAGES, entries
from tutorials.search.words import about_the_game, expand, normalize

#: The smallest top score that answers a question (tuned on the question set's tuned part
#: and its questions out of scope, docs/search.md): below it, "the rules do not say" —
#: :data:`THRESHOLD` for a question that names something of the game (a player word or a
#: name of the glossary), :data:`THRESHOLD_UNNAMED` for one that does not.
THRESHOLD = 20.0
THRESHOLD_UNNAMED = 40.0
#: How much each field of an entry weighs, words and n-grams apart.
BOOSTS = {"title_w": 1.0, "title_g": 0.4, "text_w": 2.0, "text_g": 0.8}
#: A clause id typed as such ("BAT-3", "bat 3")
CLAUSE_ID = re.compile(r"^\s*(SETUP|DICE|STRAT|SET|BAT|TRE|END|VAR|INT)[\s\-_]?(\d{1,2})\s*$", re.I)

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(rf"[{_CJK}]+|[^\W_{_CJK}]+", re.UNICODE)
_CJK_RUN = re.compile(rf"^[{_CJK}]+$")
#: words that say nothing about the rules, in English and German
STOPWORDS = frozenset((
    "a", "an", "the", "of", "to", "in", "on", "at", "for", "with", "by", "from", "and", "or", "but",
    "if", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "these", "those",
    "i", "me", "my", "we", "our", "you", "your", "he", "she", "they", "them", "what", "which",
    "who", "whom", "when", "where", "why", "how", "do", "does", "did", "can", "could", "may",
    "might", "must", "shall", "should", "will", "would", "there", "here", "then", "than", "so",
    "not", "no", "yes", "any", "some", "all", "one", "about", "into", "as", "up", "der", "die",
    "das", "den", "dem", "des", "ein", "eine", "einer", "eines", "einem", "einen", "und", "oder",
    "aber", "wenn", "ist", "sind", "war", "waren", "sein", "es", "ich", "mich", "mein", "meine",
    "meinen", "wir", "uns", "du", "dich", "dein", "deine", "er", "sie", "ihr", "was", "welche",
    "welcher", "welches", "wer", "wen", "wem", "wann", "wo", "warum", "wie", "darf", "dürfen",
    "kann", "können", "muss", "müssen", "soll", "sollen", "man", "auf", "im", "in", "ins", "am",
    "an", "zu", "zum", "zur", "mit", "bei", "von", "vom", "aus", "für", "über", "noch", "schon",
    "auch", "nicht", "kein", "keine", "ja", "nein", "so", "dann", "als", "denn",
))


def words_of(text: str) -> list[str]:
    """The words of ``text``: Latin words (not the stop words), and for Japanese every two
    characters that follow each other (a one-character run stays whole)."""
    out = []
    for run in _RUN.findall(normalize(text)):
        if _CJK_RUN.match(run):
            out += [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
        elif run not in STOPWORDS:
            out.append(run)
    return out


def grams_of(text: str) -> list[str]:
    """The 3-grams of each Latin word, its ends marked (``^sq``, ``squ``, ``uid``, ``id$``):
    a misspelt word still shares most of them."""
    out = []
    for run in _RUN.findall(normalize(text)):
        if _CJK_RUN.match(run) or run in STOPWORDS or len(run) < 3:
            continue
        marked = f"^{run}$"
        out += [marked[i:i + 3] for i in range(len(marked) - 2)]
    return out


@dataclass(frozen=True)
class Hit:
    """A clause the search found: its ``score``, the words of the question (after the
    player words) that matched, and the entry that matched best (``entry``: the key of a
    :class:`~tutorials.search.documents.Entry`, the clause's own or an FAQ entry's, a
    card's, a term's)."""

    clause: str
    score: float
    matched: tuple[str, ...]
    entry: str = ""


class RulesIndex:
    """The index of :func:`~tutorials.search.documents.entries`, in memory."""

    def __init__(self) -> None:
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("key", stored=True, tokenizer_name="raw")
        for name in BOOSTS:
            builder.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
        self.schema = builder.build()
        self.index = tantivy.Index(self.schema)
        writer = self.index.writer(heap_size=15_000_000, num_threads=1)
        self.entries = {entry.key: entry for entry in entries()}
        self.words: dict[str, set[str]] = {}
        for entry in self.entries.values():
            fields = {"key": entry.key}
            vocabulary: set[str] = set()
            for part in ("title", "text"):
                text = " ".join(getattr(entry, part)[lang] for lang in LANGUAGES)
                words, grams = words_of(text), grams_of(text)
                fields[f"{part}_w"] = " ".join(words)
                fields[f"{part}_g"] = " ".join(grams)
                vocabulary |= set(words)
            writer.add_document(tantivy.Document(**fields))
            self.words[entry.key] = vocabulary
        writer.commit()
        writer.wait_merging_threads()
        self.index.reload()
        self.searcher = self.index.searcher()
        self.clauses = {e.clauses[0] for e in self.entries.values() if e.kind == "clause"}

    def query(self, words: list[str], grams: list[str]) -> list[tuple[str, float]]:
        """The entries ranked for ``words`` and ``grams``: ``(key, score)``."""
        parts = []
        for name, boost in BOOSTS.items():
            terms = words if name.endswith("_w") else grams
            for term in dict.fromkeys(terms):
                parts.append((tantivy.Occur.Should, tantivy.Query.boost_query(
                    tantivy.Query.term_query(self.schema, name, term), boost)))
        if not parts:
            return []
        found = self.searcher.search(tantivy.Query.boolean_query(parts), limit=len(self.entries))
        return [(self.searcher.doc(address)["key"][0], score) for score, address in found.hits]


_INDEX: RulesIndex | None = None
_LOCK = threading.Lock()


def rules_index() -> RulesIndex:
    """The process's index, built on first use."""
    global _INDEX
    with _LOCK:
        if _INDEX is None:
            _INDEX = RulesIndex()
        return _INDEX


def clause_asked(question: str) -> str | None:
    """The clause id typed as the question ("BAT-3", "bat 3"), if it is one."""
    match = CLAUSE_ID.match(normalize(question))
    if not match:
        return None
    clause = f"{match[1].upper()}-{int(match[2])}"
    return clause if clause in rules_index().clauses else None


#: how much a match weighs by the kind of entry: a clause's own statement is the answer;
#: an FAQ entry, a term or a card leads to it
KIND_WEIGHTS = {"clause": 1.0, "faq": 0.85, "term": 0.85, "card": 0.75}
#: a clause's own statement adds this share of its score to the best entry leading to it,
#: so of two clauses an FAQ entry names, the one whose words the question uses comes first
OWN_SHARE = 0.3


def search(question: str, limit: int = 5) -> list[Hit]:
    """The clauses that answer ``question`` best, most likely first (at most ``limit``);
    a clause id typed as such first of all. The question may be in any of the three
    languages; the player words of all three are applied. A clause scores as the best
    entry that leads to it (weighed by :data:`KIND_WEIGHTS`), plus :data:`OWN_SHARE` of
    its own statement's score."""
    index = rules_index()
    asked = clause_asked(question)
    if asked is not None:
        return [Hit(asked, float("inf"), (), asked)]
    text = expand(question)
    words, grams = words_of(text), grams_of(text)
    best: dict[str, Hit] = {}
    own: dict[str, float] = {}
    for key, score in index.query(words, grams):
        entry = index.entries[key]
        weighted = score * KIND_WEIGHTS[entry.kind]
        if entry.kind == "clause":
            own[entry.clauses[0]] = score
        for clause in entry.clauses:
            if clause not in best or weighted > best[clause].score:
                matched = tuple(w for w in dict.fromkeys(words) if w in index.words[key])
                best[clause] = Hit(clause, weighted, matched, key)
    ranked = [Hit(h.clause, h.score + OWN_SHARE * own.get(h.clause, 0.0), h.matched, h.entry)
              for h in best.values()]
    return sorted(ranked, key=lambda h: -h.score)[:limit]


def answers(question: str, limit: int = 5) -> tuple[list[Hit], bool]:
    """:func:`search` and whether its best hit answers the question (:data:`THRESHOLD`,
    :data:`THRESHOLD_UNNAMED`)."""
    hits = search(question, limit)
    if not hits:
        return hits, False
    least = THRESHOLD if about_the_game(question) else THRESHOLD_UNNAMED
    return hits, hits[0].score >= least
