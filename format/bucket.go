package format

// A bucket of releases (snapshots/bucket) holds each release's own files
// under its date, the archived upstream files once by content, and two
// pointers at its root, written last: releases.json lists every release,
// latest.json names the newest.
const (
	// ReleasesPath is a bucket's releases.json (Releases).
	ReleasesPath = "releases.json"
	// LatestPath is a bucket's latest.json (Latest).
	LatestPath = "latest.json"
	// ContentDir holds the archived upstream files by the sha256 of their
	// bytes, ContentPath(sha256), shared by every release that archived
	// the same bytes.
	ContentDir = "sources/sha256/"
	// SiteDir holds a release's website, DATE/site/, beside its files.
	SiteDir = "site/"
)

// PointersVersion is the version of the format of releases.json and
// latest.json.
const PointersVersion = "1"

// ContentPath is the path, from a bucket's root, of the archived upstream
// file whose bytes have the sha256 sum (lower-case hex):
// sources/sha256/HEX.
func ContentPath(sum string) string { return ContentDir + sum }

// Releases is a bucket's releases.json: every release published to it, by
// ascending date, each once. Its schema is schemas/releases.schema.json.
type Releases struct {
	Version  string    `json:"version"`
	Releases []Release `json:"releases"`
}

// Latest is a bucket's latest.json: the published release of the newest
// date, also listed in releases.json. Its schema is
// schemas/latest.schema.json.
type Latest struct {
	Version string `json:"version"`
	Release
}
