package snapshots

import "github.com/leadgreen/greentokens/transform/grid"

// ManifestName is the manifest's file name at the top of a snapshot.
const ManifestName = "manifest.json"

// Manifest is a snapshot's manifest.json: where every byte came from and
// what every output file is. It lists every file in the snapshot but itself.
// Its schema is schemas/manifest.schema.json.
type Manifest struct {
	// Version of the manifest format.
	Version string `json:"version"`
	// Date is the snapshot's data version (YYYY-MM-DD), its folder name.
	Date string `json:"date"`
	// Retrieved is the retrieval date the build was given or observed.
	Retrieved string `json:"retrieved"`
	// Generator is the code that wrote the snapshot.
	Generator Generator `json:"generator"`
	// Selection holds the parameters of the selection rules.
	Selection Selection `json:"selection"`
	// Sources lists the archived upstream files, sorted by path.
	Sources []Source `json:"sources"`
	// Outputs lists the derived files, sorted by path.
	Outputs []File `json:"outputs"`
	// Evidence records the compiled-date evidence and any conflict in it.
	Evidence Evidence `json:"evidence"`
	// Exclusions lists every upstream row left out, with the reason.
	Exclusions []Exclusion `json:"exclusions"`
	// Grid holds counts from the grid stage (absent when there is no grid).
	Grid *GridSummary `json:"grid,omitempty"`
}

// Selection holds the parameters of the selection and stability rules.
type Selection struct {
	ITLDeadlineMS         int      `json:"itl_deadline_ms"`
	MinSteadyStateSeconds float64  `json:"min_steady_state_seconds"`
	MinBatchFraction      float64  `json:"min_batch_fraction"`
	Tasks                 []string `json:"tasks"`
}

// File is one file of the snapshot, by its slash-separated path relative to
// the snapshot folder, with the size and sha256 (hex) of its bytes on disk.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Source is one archived upstream file.
type Source struct {
	File
	// Name is the upstream file's name ("leaderboard/index.json").
	Name string `json:"name"`
	// URL is where the bytes came from: the URL requested, or for a local
	// file the upstream URL it stands for.
	URL string `json:"url"`
	// FinalURL is the URL that answered, after any redirects; empty for a
	// local file (an offline build), which no server answered.
	FinalURL string `json:"final_url,omitempty"`
	// Retrieved is when (RFC 3339, UTC).
	Retrieved string `json:"retrieved"`
	// Producer, Licence: who publishes it and under what terms.
	Producer string `json:"producer"`
	Licence  string `json:"licence"`
	// Layout and Header are those of Ember's CSV in its July 2026 layout
	// (grid.LayoutJuly2026, and the header column for column); absent for
	// every other file, the long-layout CSV included, whose manifest is
	// byte for byte what it was before Ember changed its layout.
	Layout string   `json:"layout,omitempty"`
	Header []string `json:"header,omitempty"`
}

// Evidence is what the build read to date the leaderboard data.
type Evidence struct {
	IndexLastUpdated string `json:"index_last_updated"`
	LastCommitSHA    string `json:"last_commit_sha"`
	LastCommitDate   string `json:"last_commit_date"` // UTC date of the commit
	Compiled         string `json:"compiled"`         // the date used
	Conflict         string `json:"conflict,omitempty"`
}

// Exclusion is an upstream row the build left out.
type Exclusion struct {
	Task       string `json:"task"`
	Row        int    `json:"row"` // 0-based index in the task file's configurations
	ModelID    string `json:"model_id"`
	GPU        string `json:"gpu"`
	NumGPUs    int    `json:"num_gpus"`
	MaxNumSeqs int    `json:"max_num_seqs"`
	Reason     string `json:"reason"`
}

// GridSummary says what the grid stage read and chose (grid.Summary, whose
// fields these are): the reference year, the rule that chose it and the
// counts per candidate year, the areas listed and those falling back to an
// earlier year, and every intensity row excluded, with its reason.
type GridSummary struct {
	Year             int              `json:"year"`
	Areas            int              `json:"areas"`
	AreasWithoutYear int              `json:"areas_without_year"`
	Fallbacks        int              `json:"fallbacks"`
	YearRule         string           `json:"year_rule"`
	YearPinned       bool             `json:"year_pinned"`
	YearCandidates   []grid.YearCount `json:"year_candidates"`
	Exclusions       []grid.Exclusion `json:"exclusions"`
}
