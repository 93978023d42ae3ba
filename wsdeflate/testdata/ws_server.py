"""Echo server for wsdeflate's interop tests, using Python websockets.

usage: ws_server.py PORT SERVER_BITS CLIENT_BITS NO_TAKEOVER
Listens on 127.0.0.1:PORT, accepts permessage-deflate with the given window
bits (0 for the client's choice) and, when NO_TAKEOVER is 1, no context
takeover in either direction, and echoes every message. Prints "listening"
when ready.
"""
import asyncio
import sys

import websockets
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory


async def echo(ws, path=None):
    async for msg in ws:
        await ws.send(msg)


async def main():
    port = int(sys.argv[1])
    server_bits, client_bits, no_takeover = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
    factory = ServerPerMessageDeflateFactory(
        server_no_context_takeover=no_takeover,
        client_no_context_takeover=no_takeover,
        server_max_window_bits=server_bits or None,
        client_max_window_bits=client_bits or None,
    )
    async with websockets.serve(echo, "127.0.0.1", port, extensions=[factory], max_size=1 << 24):
        print("listening", flush=True)
        await asyncio.Future()


asyncio.run(main())
