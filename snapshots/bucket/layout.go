package bucket

import (
	"path"

	"github.com/leadgreen/greentokens/format"
)

// The Cache-Control of the objects: a dated or content-addressed object
// never changes, so a CDN in front of the bucket keeps it for a year; the
// pointers change with every release, so it keeps them a minute.
const (
	CacheImmutable = "public, max-age=31536000, immutable"
	CachePointer   = "public, max-age=60"
)

// releaseKey is the key of a release's file at the slash path p (not a
// source): DATE/p.
func releaseKey(date, p string) string { return date + "/" + p }

// siteKey is the key of a file of a release's site: DATE/site/p.
func siteKey(date, p string) string { return date + "/" + format.SiteDir + p }

// ContentType is the Content-Type of an object by the extension of its
// path (of a source, the path its manifest archives it under): a fixed
// table, the same on every machine, application/octet-stream for an
// extension it does not name.
func ContentType(p string) string {
	switch path.Ext(p) {
	case ".json":
		return "application/json"
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".csv":
		return "text/csv; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".xml":
		return "application/xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/vnd.microsoft.icon"
	case ".webmanifest":
		return "application/manifest+json"
	}
	return "application/octet-stream"
}
