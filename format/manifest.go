package format

// ManifestVersion is the manifest format's version.
const ManifestVersion = "1"

// Bounds of manifest.json, which every reader holds it to before it
// decodes it (the store's Open, and so verify's rebuild, rebuild, diff,
// the catalog behind serve and mcp; the checker mirrors them): a larger
// file, or a longer string, is refused unread or undecoded.
const (
	// MaxManifestBytes bounds manifest.json's size. A manifest lists
	// each model's file and page and the archived sources, some 320 bytes
	// a model: 3.2 MB at ten thousand models (TestTenThousandModels); the
	// bound leaves five times that.
	MaxManifestBytes = 16 << 20
	// MaxGeneratorBytes bounds each string of the manifest's generator
	// (module, version, revision, go): a module path, a pseudo-version
	// and a 64-hex revision are well under it.
	MaxGeneratorBytes = 256
)

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
	// Licence is the terms the snapshot's derived files are published
	// under. Every build writes it and the checker requires it; it is a
	// pointer, absent when nil, so that a manifest that has none still
	// decodes and re-encodes to its own bytes (store.Open's canonical form).
	Licence *Licence `json:"licence,omitempty"`
	// Generator is the code that wrote the snapshot.
	Generator Generator `json:"generator"`
	// Selection holds the parameters of the selection rules.
	Selection Selection `json:"selection"`
	// Sources lists the archived upstream files, sorted by path.
	Sources []SourceFile `json:"sources"`
	// Outputs lists the derived files, sorted by path.
	Outputs []File `json:"outputs"`
	// Evidence records the compiled-date evidence and any conflict in it.
	Evidence Evidence `json:"evidence"`
	// Exclusions lists every upstream row left out, with the reason.
	Exclusions []Exclusion `json:"exclusions"`
	// Grid holds counts from the grid stage (absent when there is no grid).
	Grid *GridSummary `json:"grid,omitempty"`
}

// Licence is the index's own licence as a manifest records it (the
// reviewed text of internal/sourcetext's licence.json), with the
// attribution to give: the pages' "Cite as" for the snapshot's release.
type Licence struct {
	// ID is the SPDX identifier: "CC-BY-4.0".
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url"`
	// Scope says which files of the snapshot the licence covers.
	Scope string `json:"scope"`
	// Attribution is the citation to give with the data.
	Attribution string `json:"attribution"`
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

// SourceFile is one archived upstream file, as the manifest lists it.
type SourceFile struct {
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
	// ("july-2026", and the header column for column); absent for
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
	Task    string `json:"task"`
	Row     int    `json:"row"` // 0-based index in the task file's configurations
	ModelID string `json:"model_id"`
	GPU     string `json:"gpu"`
	NumGPUs int    `json:"num_gpus"`
	// MaxNumSeqs is a token task's row's; BatchSize a diffusion task's.
	MaxNumSeqs int    `json:"max_num_seqs,omitempty"`
	BatchSize  int    `json:"batch_size,omitempty"`
	Reason     string `json:"reason"`
}

// GridSummary says what the grid stage read and chose: the reference
// year, the rule that chose it and the counts per candidate year, the areas listed and those falling back to an
// earlier year, and every intensity row excluded, with its reason.
type GridSummary struct {
	Year             int             `json:"year"`
	Areas            int             `json:"areas"`
	AreasWithoutYear int             `json:"areas_without_year"`
	Fallbacks        int             `json:"fallbacks"`
	YearRule         string          `json:"year_rule"`
	YearPinned       bool            `json:"year_pinned"`
	YearCandidates   []YearCount     `json:"year_candidates"`
	Exclusions       []GridExclusion `json:"exclusions"`
}

// YearCount is what the rule that picks grid.json's reference year saw of
// one candidate year (the manifest's grid.year_candidates). Countries are the
// areas of type "Country or economy" (or "Country") with a usable value.
type YearCount struct {
	Year                int  `json:"year"`
	World               bool `json:"world"` // World has a usable value
	Countries           int  `json:"countries"`
	CountriesYearBefore int  `json:"countries_year_before"`
	Complete            bool `json:"complete"`
}

// GridExclusion is an intensity row of Ember's CSV left out of grid.json
// (the manifest's grid.exclusions): an upstream blemish that excludes that
// area and year, not the whole file.
type GridExclusion struct {
	Area string `json:"area"`
	ISO3 string `json:"iso3"`
	Year int    `json:"year"`
	Line int    `json:"line"` // the line the row starts on
	// Value is the Value field as published ("" when blank).
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// Generator is the code that wrote a snapshot, from the binary's build
// information (runtime/debug.ReadBuildInfo), never a hand-kept constant: an
// auditor can fetch and run exactly that code again.
type Generator struct {
	// Module is the main module's path: "github.com/leadgreen/greentokens".
	Module string `json:"module"`
	// Version is the module's version: a tag or pseudo-version (built with
	// "go install" or "go run ...@REV", or in a checkout whose commit Go
	// stamped: "+dirty" when modified), "(devel)" when none was stamped.
	Version string `json:"version"`
	// Revision is the full VCS revision (a git commit), "" when the binary
	// was built outside a checkout (go run ...@REV records none; Version
	// then names the code).
	Revision string `json:"revision"`
	// Modified is true when the checkout had uncommitted changes: the
	// revision alone does not give the code then.
	Modified bool `json:"modified"`
	// Go is the Go toolchain that built the binary: "go1.26.0".
	Go string `json:"go"`
}

// String is the generator on one line: module, version, revision (with
// "+modified"), Go version.
func (g Generator) String() string {
	s := g.Module + " " + g.Version
	if g.Revision != "" {
		s += " revision " + g.Revision
		if g.Modified {
			s += " (modified)"
		}
	} else {
		s += " (no VCS revision recorded)"
	}
	if g.Go != "" {
		s += " " + g.Go
	}
	return s
}
