"""Matrix echo server for wsdeflate's interop tests, using Python websockets.

usage: ws_matrix_server.py CASES
CASES is a JSON list of {"port", "server_bits", "client_bits" (8..15, 0 for
the client's choice), "server_no_takeover", "client_no_takeover"}. One
echo server per case listens on 127.0.0.1:port and accepts
permessage-deflate with those parameters. Prints "listening" when all are
ready.
"""
import asyncio
import json
import sys

import websockets
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory


async def echo(ws, path=None):
    async for msg in ws:
        await ws.send(msg)


async def main():
    servers = []
    for c in json.loads(sys.argv[1]):
        factory = ServerPerMessageDeflateFactory(
            server_no_context_takeover=c["server_no_takeover"],
            client_no_context_takeover=c["client_no_takeover"],
            server_max_window_bits=c["server_bits"] or None,
            client_max_window_bits=c["client_bits"] or None,
        )
        servers.append(await websockets.serve(echo, "127.0.0.1", c["port"], extensions=[factory], max_size=1 << 24))
    print("listening", flush=True)
    await asyncio.Future()


asyncio.run(main())
