"""Whether a theme can be generated for a profile from a source: the generator's reading of the
themes' data (``Theme.build``, ``Theme.build_lays``), naming no theme."""

from __future__ import annotations

from ..profile import Profile, TableauBuild
from ..themes import Lays, find_theme


def _lacks(need: Lays, profile: Profile) -> bool:
    """Does `profile` lack what a builder lays out?"""
    if need is Lays.ALTERNATE_RUNS:
        return profile.tableau_build != TableauBuild.ALTERNATE
    return not profile.reserve_piles


def unavailable(theme_id: str, profile: Profile, source: str = "built") -> str | None:
    """Why a profile cannot pose this theme's lesson at all (None when it can).

    With ``source="built"`` also why the theme's builder cannot lay the lesson out for this
    profile: a builder that lays out alternate-colour runs or reserve piles (``Theme.build_lays``)
    cannot build for a profile without them; such themes are mined from its deals instead
    (``--source deals``)."""
    theme = find_theme(theme_id, profile.id)
    if theme is None:
        return f"no theme teaches {theme_id} for the profile {profile.id}"
    why_not = profile.cannot_use(theme_id)
    if why_not:
        return why_not
    if source == "built" and theme.build is None:
        return f"the {theme_id} lesson has no builder: compose it (--source small) or mine deals instead"
    if source == "built" and any(_lacks(need, profile) for need in theme.build_lays):
        lays = " and ".join(theme.build_lays)
        return (f"the built {theme_id} lesson lays out {lays}, which "
                f"{profile.id} does not have: mine its deals instead (--source deals --deals 1-200)")
    return None
