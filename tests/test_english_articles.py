"""English messages say "an A" and "an 8", as Spanish ones say «la J♠»: the article agrees with the
rank or card filled in after it (``i18n.agree``), in Python and on the practice page alike."""

from __future__ import annotations

import re

import pytest

from agnes_teach import i18n
from agnes_teach.registry import RuleId


@pytest.mark.parametrize(("rank", "said"), [("A", "an A"), ("8", "an 8"), ("10", "a 10"), ("K", "a K"),
                                            ("2", "a 2")])
def test_the_empty_columns_rule_takes_the_article_its_rank_needs(rank: str, said: str) -> None:
    text = i18n.text("en", "why-rule", RuleId.TABLEAU_EMPTY, rank=rank, base="2", card="A♥", pile="t3")
    assert text.startswith(f"An empty column takes only {said} here"), text
    refused = i18n.text("en", "refusal", RuleId.TABLEAU_EMPTY, want=rank, card="K♠")
    assert f"only {said}, or a valid run led by {said};" in refused, refused


def test_the_page_script_gets_the_same_rule() -> None:
    rule = i18n.agreement("en")
    assert rule is not None
    pattern = re.compile(str(rule["pattern"]))
    articles = rule["articles"]
    assert isinstance(articles, dict)
    text = "takes only a A♥ or a 8, a 10, a K; A A♠ leads"
    assert pattern.sub(lambda m: articles[m.group(1)] + m.group(2), text) == i18n.agree("en", text)
    assert i18n.agree("en", text) == "takes only an A♥ or an 8, a 10, a K; An A♠ leads"
    assert i18n.agreement("ru") is None
