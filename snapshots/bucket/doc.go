// Package bucket keeps the releases of the Green Tokens index in a bucket
// of objects, through gocloud.dev/blob and its own drivers (Schemes):
// a local folder (file://), any S3-compatible store (s3://), Google Cloud
// Storage (gs://), Azure Blob Storage (azblob://), or one process's memory
// (mem://). A bucket is what a CDN serves and what a reader fetches one
// file of; it holds (docs/snapshot-format.md, "A bucket of releases"):
//
//	sources/sha256/HEX        each archived upstream file once, by the sha256 of its bytes,
//	                          shared by every release that archived the same bytes
//	DATE/manifest.json        each release's own files, under its date, written once
//	DATE/models/, DATE/pages/, DATE/index.json, DATE/grid.json
//	DATE/site/                the release's website, when one was published with it
//	releases.json             every release, with the sha256 of its manifest (format.Releases)
//	latest.json               the newest release (format.Latest)
//
// The pointers, releases.json and latest.json, are written last, after
// every object of a release has been read back from the bucket and its
// sha256 checked, each by a compare-and-swap where the driver has one
// (pointer.go): a reader that follows them finds every byte they promise.
//
// A Bucket is a store.Store: Entries are the releases releases.json lists
// and FS(date) is the release under DATE/ with its sources read by
// content (fs.go), so that store.Load, the checker and verify read a
// release from a bucket with the code that reads one from a folder.
// Publish (publish.go) writes a release into one, write-once, as the
// steps of its doc say; objects.go holds the objects it writes and checks.
//
// Credentials come from each cloud's own chain (environment, profile,
// workload identity); a bucket URL that carries one is refused (url.go).
package bucket
