package encoding

import "strings"

// CompressibleType reports whether bodies of mediaType (lower case, without
// parameters) are worth compressing: text, structured text (JSON, XML and
// their +json and +xml kin, YAML, JavaScript, SVG), WebAssembly, server-sent
// events, and the font and image formats that are stored uncompressed.
// Media types that are already compressed (images, audio, video, archives,
// WOFF fonts) and unknown binary types are not.
func CompressibleType(mediaType string) bool {
	if strings.HasPrefix(mediaType, "text/") {
		return true // text/html, text/css, text/plain, text/csv, text/event-stream, ...
	}
	if strings.HasSuffix(mediaType, "+json") || strings.HasSuffix(mediaType, "+xml") {
		return true // application/ld+json, application/atom+xml, image/svg+xml, ...
	}
	switch mediaType {
	case "application/json",
		"application/x-ndjson",
		"application/javascript",
		"application/x-javascript",
		"application/ecmascript",
		"application/xml",
		"application/yaml",
		"application/x-yaml",
		"application/toml",
		"application/graphql",
		"application/x-www-form-urlencoded",
		"application/wasm",
		"application/x-sh",
		"application/rtf",
		"application/vnd.ms-fontobject",
		"font/ttf", "font/otf", "font/collection",
		"application/x-font-ttf", "application/x-font-otf", "application/font-sfnt",
		"image/bmp", "image/x-icon", "image/vnd.microsoft.icon":
		return true
	}
	return false
}
