// Echo client for wsdeflate's interop tests, using the npm ws package.
//
// usage: node ws_client.js URL COUNT SERVER_BITS CLIENT_BITS NO_TAKEOVER
// Same arguments and output as ws_client.py; threshold 0 makes ws compress
// every message, small ones included.
const WebSocket = require("ws");

const [url, countArg, serverBits, clientBits, noTakeover] = process.argv.slice(2);
const count = Number(countArg);

function message(i) {
  const size = [16, 200, 1000, 5000][i % 4];
  const items = [];
  while (JSON.stringify(items).length < size) {
    items.push({ id: i * 1000 + items.length, name: "user-" + ((i * 7 + items.length) % 97), ok: items.length % 3 === 0 });
  }
  return JSON.stringify({ seq: i, items });
}

const perMessageDeflate = { threshold: 0 };
if (Number(serverBits)) perMessageDeflate.serverMaxWindowBits = Number(serverBits);
if (Number(clientBits)) perMessageDeflate.clientMaxWindowBits = Number(clientBits);
if (noTakeover === "1") {
  perMessageDeflate.serverNoContextTakeover = true;
  perMessageDeflate.clientNoContextTakeover = true;
}

const ws = new WebSocket(url, { perMessageDeflate });
ws.on("upgrade", (res) => console.log("extensions:", res.headers["sec-websocket-extensions"] || ""));
let i = 0;
let sent;
function next() {
  if (i === count) {
    ws.close(1000);
    return;
  }
  sent = message(i);
  ws.send(sent);
}
ws.on("open", next);
ws.on("message", (data, isBinary) => {
  const got = data.toString();
  if (isBinary || got !== sent) {
    console.error(`echo ${i} differs: sent ${sent.length} chars, got ${got.length}`);
    process.exit(1);
  }
  i++;
  next();
});
ws.on("close", (code) => {
  if (i !== count) {
    console.error(`closed with ${code} after ${i} of ${count} messages`);
    process.exit(1);
  }
  console.log("ok", count);
});
ws.on("error", (err) => {
  console.error(err.message);
  process.exit(1);
});
