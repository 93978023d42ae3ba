// The demo page's script: a chart of what the compression middleware did,
// the server-sent events stream and the WebSocket chat. It is served from
// the sidecars the generator wrote beside it (go generate ./examples/server).
"use strict";

const svgNS = "http://www.w3.org/2000/svg";
const colors = { in: "#c9d3dd", out: "#2f8f6a" };

// el makes an SVG element; attribute values and text are set as such, never
// parsed as markup.
function el(name, attrs, text) {
  const e = document.createElementNS(svgNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function kb(n) {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KB`;
}

// drawChart draws two bars per coding, bytes in and bytes out, on one scale,
// with the saving and the time spent compressing beside them.
function drawChart(codings) {
  const svg = document.getElementById("chart");
  const names = Object.keys(codings).sort();
  const width = 640, label = 80, right = 70, row = 58, bar = 13;
  const plot = width - label - right;
  const max = Math.max(1, ...names.map((c) => codings[c].BytesIn));
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.max(1, names.length) * row + 22}`);
  svg.replaceChildren();
  let bars = 0;
  names.forEach((name, i) => {
    const s = codings[name];
    const y = i * row + 4;
    const g = el("g", { "data-coding": name });
    svg.append(g);
    g.append(el("text", { x: 0, y: y + bar + 3, class: "coding" }, name));
    for (const [k, v, dy] of [["in", s.BytesIn, 0], ["out", s.BytesOut, bar + 2]]) {
      const w = Math.max(1, Math.round((v / max) * plot));
      const r = el("rect", { x: label, y: y + dy, width: w, height: bar, rx: 2, fill: colors[k] });
      r.append(el("title", {}, `${name}: ${k} ${v} bytes`));
      g.append(r);
      g.append(el("text", { x: label + w + 6, y: y + dy + bar - 2, class: "value" }, kb(v)));
      bars++;
    }
    const saved = s.BytesIn > 0 ? Math.max(0, 100 * (1 - s.BytesOut / s.BytesIn)).toFixed(1) : "0.0";
    const ms = (s.Time / 1e6).toFixed(2);
    g.append(el("text", { x: label, y: y + 2 * bar + 17, class: "stat" },
      `${s.Responses} responses · saved ${saved} % · ${ms} ms compressing`));
  });
  const ly = names.length * row + 12;
  svg.append(el("rect", { x: label, y: ly - 9, width: 10, height: 10, fill: colors.in }));
  svg.append(el("text", { x: label + 14, y: ly, class: "value" }, "written by the handler"));
  svg.append(el("rect", { x: label + 170, y: ly - 9, width: 10, height: 10, fill: colors.out }));
  svg.append(el("text", { x: label + 184, y: ly, class: "value" }, "sent"));
  svg.dataset.bars = bars;
}

// drawRecent lists the last responses. Every value is set as text, never
// parsed as markup, whatever /stats sends.
function drawRecent(recent) {
  const row = (tag, values) => {
    const tr = document.createElement("tr");
    for (const v of values) {
      const cell = document.createElement(tag);
      cell.textContent = v;
      tr.append(cell);
    }
    return tr;
  };
  document.getElementById("recent").replaceChildren(
    row("th", ["recent route", "coding", "made by", "why not compressed", "bytes in", "bytes out", "time"]),
    ...recent.slice().reverse().map((r) =>
      row("td", [r.Route, r.Coding, r.Origin, r.Skip, r.BytesIn, r.BytesOut, `${(r.Time / 1e3).toFixed(0)} µs`])));
}

async function refresh() {
  const s = await (await fetch("/stats")).json();
  drawChart(s.Codings);
  drawRecent(s.Recent);
}

document.getElementById("fetch").onclick = async () => {
  await (await fetch("/api/items")).json();
  refresh();
};

// Server-sent events: each tick arrives as it is flushed, through the
// encoder. The stream starts on demand: an open stream would also keep
// headless browsers (the tests') from ever finishing the page.
const events = document.getElementById("events");
document.getElementById("stream").onclick = () => {
  events.textContent = "";
  const source = new EventSource("/events");
  source.onmessage = (e) => {
    const tick = JSON.parse(e.data);
    events.textContent += `tick ${tick.tick} at ${tick.at}\n`;
    events.scrollTop = events.scrollHeight;
    refresh();
  };
  source.onerror = () => source.close(); // the server ends it after ten ticks
};

// WebSocket chat: the page greets the room with a marker of its own and
// reports the round trip once the broadcast brings it back.
const chat = document.getElementById("chat");
const status = document.getElementById("ws-status");
const marker = `hello from page ${Math.random().toString(36).slice(2, 8)}`;
const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
ws.onopen = () => {
  status.textContent = "connected";
  ws.send(marker);
};
// The server's first message says which protocol carries the socket.
const proto = document.getElementById("ws-proto");
let first = true;
ws.onmessage = (e) => {
  if (first) {
    first = false;
    proto.textContent = e.data;
    return;
  }
  chat.textContent += `${e.data}\n`;
  chat.scrollTop = chat.scrollHeight;
  refresh();
  if (e.data === marker) {
    status.textContent = "chat round trip ok";
    status.dataset.roundtrip = "ok";
  }
};
ws.onclose = (e) => { status.textContent = `closed (${e.code})`; };
document.getElementById("say").onsubmit = (e) => {
  e.preventDefault();
  const text = document.getElementById("text");
  if (text.value && ws.readyState === WebSocket.OPEN) ws.send(text.value);
  text.value = "";
};

fetch("/api/items").then(refresh);
setInterval(refresh, 2000);
