// Matrix echo server for wsdeflate's interop tests, using the npm ws package.
//
// usage: node ws_matrix_server.js CASES
// Same arguments and output as ws_matrix_server.py; a case's "threshold"
// is ws's: messages shorter than that many bytes are sent uncompressed.
const { WebSocketServer } = require("ws");

const cases = JSON.parse(process.argv[2]);
let pending = cases.length;
for (const c of cases) {
  const perMessageDeflate = { threshold: c.threshold };
  if (c.server_bits) perMessageDeflate.serverMaxWindowBits = c.server_bits;
  if (c.client_bits) perMessageDeflate.clientMaxWindowBits = c.client_bits;
  if (c.server_no_takeover) perMessageDeflate.serverNoContextTakeover = true;
  if (c.client_no_takeover) perMessageDeflate.clientNoContextTakeover = true;
  const wss = new WebSocketServer({ host: "127.0.0.1", port: c.port, perMessageDeflate, maxPayload: 1 << 24 });
  wss.on("listening", () => {
    if (--pending === 0) console.log("listening");
  });
  wss.on("connection", (ws) => {
    ws.on("message", (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
}
