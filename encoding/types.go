package encoding

import (
	"strings"
	"unicode/utf8"
)

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

// mediaType returns the lower-case type/subtype of a Content-Type value,
// without parameters or white space, allocating only for upper-case input.
func mediaType(contentType string) string {
	// A value with no parameter, space or upper case, the common
	// "application/json", is its own media type.
	for i := 0; i < len(contentType); i++ {
		c := contentType[i]
		if 'a' <= c && c <= 'z' {
			continue // most of the bytes, checked first
		}
		if c == ';' || c <= ' ' || c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return trimMediaType(contentType)
		}
	}
	return contentType
}

// trimMediaType is mediaType for a value that has something to remove or
// lower: parameters, white space (of which TrimSpace takes non-ASCII kinds
// too) or upper case.
func trimMediaType(contentType string) string {
	if i := strings.IndexByte(contentType, ';'); i >= 0 {
		contentType = contentType[:i]
	}
	contentType = strings.TrimSpace(contentType)
	for i := 0; i < len(contentType); i++ {
		if c := contentType[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(contentType)
		}
	}
	return contentType
}
