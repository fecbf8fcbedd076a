"""Reading a request's JSON body: the size limit, and each field checked with a message naming it.

Every error here is an ``ApiError`` with the contract's status: 413 for a body
over ``MAX_BODY``, 422 for a body that is not the JSON a route takes.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

MAX_BODY = 64 * 1024
MAX_NAME = 80  # a pupil's or a class's name, a title: characters
MAX_CLIENT_ID = 64


class ApiError(Exception):
    """An answer other than success: its status and one sentence."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def unprocessable(message: str) -> ApiError:
    return ApiError(422, message)


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object: 413 over MAX_BODY (read no further), 422 if not an object."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise ApiError(413, f"the body is over {MAX_BODY // 1024} KiB")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, f"the body is over {MAX_BODY // 1024} KiB")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks).decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise unprocessable("body: not JSON (send a JSON object, UTF-8)") from None
    if not isinstance(data, dict):
        raise unprocessable("body: a JSON object is expected")
    return data


def only_fields(data: dict[str, Any], required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    """422 for a missing field or one the route does not take."""
    for name in required:
        if name not in data:
            raise unprocessable(f"{name}: missing")
    for name in data:
        if name not in required and name not in optional:
            taken = ", ".join(required + optional)
            raise unprocessable(f"{name}: not a field of this request (it takes {taken})")


def text_field(data: dict[str, Any], name: str, limit: int = MAX_NAME) -> str:
    """A one-line text: a string of 1 to `limit` characters, trimmed, without control characters."""
    value = data.get(name)
    if not isinstance(value, str):
        raise unprocessable(f"{name}: a string is expected")
    value = value.strip()
    if not value:
        raise unprocessable(f"{name}: empty")
    if len(value) > limit:
        raise unprocessable(f"{name}: longer than {limit} characters")
    if any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 or 0xD800 <= ord(ch) < 0xE000 for ch in value):
        raise unprocessable(f"{name}: control characters are not allowed")
    return value


def id_field(data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value or len(value) > 200:
        raise unprocessable(f"{name}: an id (a non-empty string) is expected")
    return value


def int_field(data: dict[str, Any], name: str, low: int, high: int) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise unprocessable(f"{name}: a whole number is expected")
    if not low <= value <= high:
        raise unprocessable(f"{name}: must be from {low} to {high}")
    return value


def string_list(data: dict[str, Any], name: str, low: int, high: int, item_limit: int = 200) -> list[str]:
    value = data.get(name)
    if not isinstance(value, list):
        raise unprocessable(f"{name}: a list of strings is expected")
    if not low <= len(value) <= high:
        raise unprocessable(f"{name}: {len(value)} entries; from {low} to {high} are taken")
    for index, item in enumerate(value):
        if not isinstance(item, str) or len(item) > item_limit:
            raise unprocessable(f"{name}[{index}]: a string of at most {item_limit} characters is expected")
    return value
