"""Echo client for wsdeflate's interop tests, using Python websockets.

usage: ws_client.py URL COUNT SERVER_BITS CLIENT_BITS NO_TAKEOVER
SERVER_BITS and CLIENT_BITS are 8..15 or 0 for none; NO_TAKEOVER is 0 or 1
and asks for no context takeover in both directions. Sends COUNT JSON text
messages of mixed sizes, checks each echo byte for byte, and prints the
negotiated Sec-WebSocket-Extensions and "ok COUNT".
"""
import asyncio
import json
import sys

import websockets
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory


def message(i):
    size = (16, 200, 1000, 5000)[i % 4]
    items = []
    while len(json.dumps(items)) < size:
        items.append({"id": i * 1000 + len(items), "name": "user-%d" % ((i * 7 + len(items)) % 97), "ok": len(items) % 3 == 0})
    return json.dumps({"seq": i, "items": items})


async def main():
    url, count = sys.argv[1], int(sys.argv[2])
    server_bits, client_bits, no_takeover = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
    factory = ClientPerMessageDeflateFactory(
        server_no_context_takeover=no_takeover,
        client_no_context_takeover=no_takeover,
        server_max_window_bits=server_bits or None,
        client_max_window_bits=client_bits or True,
    )
    async with websockets.connect(url, extensions=[factory], max_size=1 << 24) as ws:
        print("extensions:", ws.response_headers.get("Sec-WebSocket-Extensions", ""))
        for i in range(count):
            sent = message(i)
            await ws.send(sent)
            got = await ws.recv()
            if got != sent:
                sys.exit("echo %d differs: sent %d chars, got %d" % (i, len(sent), len(got)))
    print("ok", count)


asyncio.run(main())
