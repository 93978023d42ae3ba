// The demo page's script, served by precompressed.FileServer: without a
// sidecar it is compressed once and then served from the cache.
"use strict";

const events = document.getElementById("events");
const stats = document.getElementById("stats");

const source = new EventSource("/events");
source.onmessage = (e) => {
  const tick = JSON.parse(e.data);
  events.textContent += `tick ${tick.tick} at ${tick.at}\n`;
};
source.onerror = () => source.close();

function row(coding, s) {
  const saved = s.BytesIn > 0 ? (100 * (1 - s.BytesOut / s.BytesIn)).toFixed(1) : "0.0";
  const width = Math.max(1, Math.round((s.BytesOut / Math.max(1, s.BytesIn)) * 200));
  return `<tr><td>${coding}</td><td>${s.Responses}</td><td>${s.BytesIn}</td><td>${s.BytesOut}</td>` +
    `<td>${saved} %</td><td><span class="bar" style="width:${width}px"></span></td></tr>`;
}

async function refresh() {
  const s = await (await fetch("/stats")).json();
  stats.innerHTML = "<tr><th>coding</th><th>responses</th><th>bytes in</th><th>bytes out</th><th>saved</th><th>out / in</th></tr>" +
    Object.keys(s).sort().map((c) => row(c, s[c])).join("");
  document.title = "squeeze demo (ready)";
}

refresh();
setInterval(refresh, 1000);
