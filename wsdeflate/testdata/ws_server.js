// Echo server for wsdeflate's interop tests, using the npm ws package.
//
// usage: node ws_server.js PORT SERVER_BITS CLIENT_BITS NO_TAKEOVER
// Same arguments and output as ws_server.py; threshold 0 makes ws compress
// every message.
const { WebSocketServer } = require("ws");

const [port, serverBits, clientBits, noTakeover] = process.argv.slice(2);
const perMessageDeflate = { threshold: 0 };
if (Number(serverBits)) perMessageDeflate.serverMaxWindowBits = Number(serverBits);
if (Number(clientBits)) perMessageDeflate.clientMaxWindowBits = Number(clientBits);
if (noTakeover === "1") {
  perMessageDeflate.serverNoContextTakeover = true;
  perMessageDeflate.clientNoContextTakeover = true;
}

const wss = new WebSocketServer({ host: "127.0.0.1", port: Number(port), perMessageDeflate, maxPayload: 1 << 24 });
wss.on("listening", () => console.log("listening"));
wss.on("connection", (ws) => {
  ws.on("message", (data, isBinary) => ws.send(data, { binary: isBinary }));
});
