"""Tokens, class codes and ids: random, and tokens kept only as hashes.

A token is 256 random bits, so a plain SHA-256 of it is enough to store: a
slow password hash guards low-entropy secrets against guessing, and nobody
can guess 256 bits. Lookups compare hashes, never the token itself.
"""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32  # 256 bits; the contract asks at least 128
# A class code is typed by pupils from the board: no 0/O, 1/I/L, 2/Z, 5/S, 8/B to confuse.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6  # 25**6, about 244 million codes; a wrong code counts towards the client's limit
ID_BYTES = 6


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: str) -> str:
    """A code as typed: case and spaces do not matter."""
    return "".join(text.split()).upper()


def new_id(prefix: str) -> str:
    """A short random id such as ``c-3f9a0b12c4d1``: unguessable enough that ids leak nothing."""
    return f"{prefix}-{secrets.token_hex(ID_BYTES)}"
