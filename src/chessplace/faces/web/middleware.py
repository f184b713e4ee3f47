"""Guards every HTTP request passes through before and while the API answers it."""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from chessplace.notation.problemfile import repeated_key
from chessplace.runtime.clipping import clipped


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413, one line) before anything reads
    them, and JSON bodies that name a key twice in one object (400, one line: JSON
    readers would keep the last silently, where problem files refuse it)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        key = repeated_key(body) if body else None
        if key is not None:
            detail = (
                f"not valid JSON: the key {clipped(json.dumps(key), 40)} comes twice in one object"
            )
            await JSONResponse({"detail": detail}, status_code=400)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = f"the request body is over this server's limit of {self.limit} bytes"
        response = JSONResponse(
            {"detail": detail}, status_code=413, headers={"Connection": "close"}
        )
        await response(scope, receive, send)


class CancelOnDisconnect:
    """Cancel the handling of a request whose client leaves before the answer starts,
    so that its job leaves the pool's line or stops (the API's handlers cancel their
    ticket when cancelled) rather than run for no one. A streamed answer, once started,
    hears the disconnect itself. It sits inside :class:`BodyLimit`, which hands on the
    whole body as one message: what ``receive`` gives after it is the disconnect."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        first = await receive()
        if first["type"] != "http.request":
            return  # the client left
        if first.get("more_body", False):
            raise RuntimeError("CancelOnDisconnect needs the whole body at once (BodyLimit)")
        gone = asyncio.Event()
        answering = False
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return first
            await gone.wait()
            return {"type": "http.disconnect"}

        async def answer(message: Message) -> None:
            nonlocal answering
            answering = True
            await send(message)

        handling: asyncio.Future[None] = asyncio.ensure_future(self.app(scope, replay, answer))
        abandoned = False

        async def watch() -> None:
            nonlocal abandoned
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()
            if not answering:
                abandoned = True
                handling.cancel()

        watcher = asyncio.create_task(watch())
        try:
            await handling
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if not abandoned or (current is not None and current.cancelling()):
                raise  # the server itself is stopping this request
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
