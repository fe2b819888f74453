package format

// Release names one published snapshot for good: its date (the folder's
// name and the data version, YYYY-MM-DD) and the sha256 of its
// manifest.json (lower-case hex), which fixes every byte the snapshot
// holds, since the manifest lists the size and sha256 of every other file.
// Two releases of one date with other bytes have other manifests.
type Release struct {
	Date           string `json:"date"`
	ManifestSHA256 string `json:"manifest_sha256"`
}
