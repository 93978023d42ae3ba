"""Matrix echo client for wsdeflate's interop tests, using Python websockets.

usage: ws_matrix_client.py URL COUNT CASES
CASES is a JSON list of {"server_bits", "client_bits" (8..15, 0 for none),
"server_no_takeover", "client_no_takeover"}. For case i it connects to
URL?case=i offering those parameters, sends COUNT JSON text messages of
mixed sizes, checks each echo byte for byte, and prints
"case i extensions: <negotiated Sec-WebSocket-Extensions>" and "case i ok COUNT".
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
    url, count, cases = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
    msgs = [message(i) for i in range(count)]
    for n, c in enumerate(cases):
        factory = ClientPerMessageDeflateFactory(
            server_no_context_takeover=c["server_no_takeover"],
            client_no_context_takeover=c["client_no_takeover"],
            server_max_window_bits=c["server_bits"] or None,
            client_max_window_bits=c["client_bits"] or True,
        )
        async with websockets.connect("%s?case=%d" % (url, n), extensions=[factory], max_size=1 << 24) as ws:
            print("case %d extensions: %s" % (n, ws.response_headers.get("Sec-WebSocket-Extensions", "")), flush=True)
            for i, sent in enumerate(msgs):
                await ws.send(sent)
                got = await ws.recv()
                if got != sent:
                    sys.exit("case %d: echo %d differs: sent %d chars, got %d" % (n, i, len(sent), len(got)))
        print("case %d ok %d" % (n, count), flush=True)


asyncio.run(main())
