// Matrix echo client for wsdeflate's interop tests, using the npm ws package.
//
// usage: node ws_matrix_client.js URL COUNT CASES
// Same arguments and output as ws_matrix_client.py; a case's "threshold"
// is ws's: messages shorter than that many bytes are sent uncompressed.
const WebSocket = require("ws");

const [url, countArg, casesArg] = process.argv.slice(2);
const count = Number(countArg);
const cases = JSON.parse(casesArg);

function message(i) {
  const size = [16, 200, 1000, 5000][i % 4];
  const items = [];
  while (JSON.stringify(items).length < size) {
    items.push({ id: i * 1000 + items.length, name: "user-" + ((i * 7 + items.length) % 97), ok: items.length % 3 === 0 });
  }
  return JSON.stringify({ seq: i, items });
}

function options(c) {
  const o = { threshold: c.threshold };
  if (c.server_bits) o.serverMaxWindowBits = c.server_bits;
  if (c.client_bits) o.clientMaxWindowBits = c.client_bits;
  if (c.server_no_takeover) o.serverNoContextTakeover = true;
  if (c.client_no_takeover) o.clientNoContextTakeover = true;
  return o;
}

function run(n, msgs) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}?case=${n}`, { perMessageDeflate: options(cases[n]) });
    ws.on("upgrade", (res) => console.log(`case ${n} extensions: ${res.headers["sec-websocket-extensions"] || ""}`));
    let i = 0;
    ws.on("open", () => ws.send(msgs[0]));
    ws.on("message", (data, isBinary) => {
      const got = data.toString();
      if (isBinary || got !== msgs[i]) {
        reject(new Error(`case ${n}: echo ${i} differs: sent ${msgs[i].length} chars, got ${got.length}`));
        return;
      }
      i++;
      if (i === count) ws.close(1000);
      else ws.send(msgs[i]);
    });
    ws.on("close", (code) => {
      if (i !== count) reject(new Error(`case ${n}: closed with ${code} after ${i} of ${count} messages`));
      else resolve();
    });
    ws.on("error", reject);
  });
}

(async () => {
  const msgs = Array.from({ length: count }, (_, i) => message(i));
  for (let n = 0; n < cases.length; n++) {
    await run(n, msgs);
    console.log(`case ${n} ok ${count}`);
  }
})().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
