package main

import (
	"html/template"
	"net/http"
)

// contentSecurityPolicy lets pages run only script and style from the
// demo's own origin: markup that found its way into the page would still
// run nothing (no inline handlers, no inline <script>, no plugins, no
// <base> to redirect the script's URL). Browsers accept ws: and wss: to the
// same host under 'self', which the chat needs.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// withSecurityHeaders adds the policy above and nosniff to every response,
// so that no browser takes a JSON or text response for a page.
func withSecurityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		h.ServeHTTP(w, r)
	})
}

// servePage sends the demo page. html/template escapes the one value taken
// from the request, its Accept-Encoding.
func servePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	page.Execute(w, map[string]string{"Accept": r.Header.Get("Accept-Encoding")})
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>squeeze demo</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/style.css"></head>
<body>
<header><h1>squeeze</h1><p>Your browser sent <code>Accept-Encoding: {{.Accept}}</code></p></header>
<section><h2>What the middleware did</h2>
<p class="note">Bytes the handlers wrote and bytes sent, and time spent compressing, per coding, from the <code>OnResponse</code> hook
(the page's own polls of <code>/stats</code> left out; each coding was used once at start-up, so its one-time set-up is not charged to the first request).
<button id="fetch">fetch /api/items</button></p>
<svg id="chart" role="img" aria-label="bytes before and after compression per coding"></svg>
<table id="recent"></table></section>
<section><h2>Server-sent events</h2>
<p class="note">Ten events, half a second apart, each flushed through the encoder. <button id="stream">stream /events</button></p>
<div id="events" class="log"></div></section>
<section><h2>WebSocket chat</h2>
<p class="note">Every message goes to every open page, compressed with permessage-deflate. Open a second tab.</p>
<div id="chat" class="log"></div>
<form id="say"><input id="text" autocomplete="off" maxlength="1000" placeholder="say something"><button>send</button></form>
<p id="ws-status" class="note">connecting…</p>
<p id="ws-proto" class="note"></p></section>
<script src="/static/app.js"></script></body></html>
`))
