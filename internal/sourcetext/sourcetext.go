// Package sourcetext holds the reviewed, fixed text a snapshot publishes:
// the ML.ENERGY Leaderboard's source block and the sentences the index
// repeats of it (leaderboard.json), Ember's source block and reference-year
// rule (ember.json), the tasks' display names and units (tasks.json), and
// the model pages' words with the sentence on what the energy covers
// (pages.json), the index's own licence, which every manifest records
// (licence.json), and what every carbon answer says of its accounting
// (carbon.json). The text lives in JSON files embedded in the binary, so it
// is reviewed in one place rather than spread through code.
//
// Load is the one loader. The builder (transform/ and transform/grid, the
// store's manifest, format's task registry, render's pages) and the
// checker (validate/, which compares every fixed text it can see) both read
// the text through it; the checker fills the text's templates with its own
// code, so Fill is the builder's and the renderers' only.
package sourcetext

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed leaderboard.json ember.json tasks.json pages.json licence.json carbon.json
var files embed.FS

// Text is every fixed text a snapshot publishes.
type Text struct {
	Leaderboard Leaderboard
	Ember       Ember
	// Tasks are the published tasks' names and units, by the leaderboard's
	// task id ("lm-arena-chat").
	Tasks   map[string]Task
	Pages   Pages
	Licence Licence
	Carbon  Carbon
}

// Leaderboard is the fixed text of the ML.ENERGY Leaderboard source block
// (every model file's source), and what index.json and the manifest repeat
// of it.
type Leaderboard struct {
	Name                   string   `json:"name"`
	Publisher              string   `json:"publisher"`
	Producer               string   `json:"producer"`
	URL                    string   `json:"url"`
	LeaderboardVersion     string   `json:"leaderboard_version"`
	Released               string   `json:"released"`
	VersionTemplate        string   `json:"version_template"`
	CompiledEvidenceAgree  string   `json:"compiled_evidence_agree"`
	CompiledEvidenceDiffer string   `json:"compiled_evidence_differ"`
	Licence                string   `json:"licence"`
	LicenceEvidence        []string `json:"licence_evidence"`
	Workload               string   `json:"workload"`
	Method                 string   `json:"method"`
	Selection              string   `json:"selection"`
	Cite                   string   `json:"cite"`
	CiteURL                string   `json:"cite_url"`
	UsedFor                string   `json:"used_for"`
	ConfigurationsTemplate string   `json:"configurations_template"`
	Caveat                 string   `json:"caveat"`
	Boundary               string   `json:"boundary"`
	// IndexDetails is index.json's source.details.
	IndexDetails string `json:"index_details"`
	// ConflictTemplate is the manifest's evidence.conflict, when the
	// index's date and the newest commit's differ.
	ConflictTemplate string `json:"conflict_template"`
}

// Ember is the fixed text of grid.json's source block and unit, and of the
// manifest's entries for Ember's CSV.
type Ember struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Producer string `json:"producer"`
	Licence  string `json:"licence"`
	// ReleaseNotStated is grid.json's source.release when the build is told
	// no release name (the CSV does not carry one).
	ReleaseNotStated string `json:"release_not_stated"`
	Definition       string `json:"definition"`
	Unit             string `json:"unit"`
	// YearRule is the reference-year rule as the manifest's grid block
	// records it.
	YearRule string `json:"year_rule"`
}

// Task is a published task's display name ("Text Conversation") and the
// unit of its energy figures ("Wh per million output tokens").
type Task struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
}

// Pages is the fixed text of the model pages.
type Pages struct {
	Publisher      string `json:"publisher"`
	Title          string `json:"title"`
	IndexURL       string `json:"index_url"`
	CiteAs         string `json:"cite_as"`
	ModelCardURL   string `json:"model_card_url"`
	OwnMeasurement string `json:"own_measurement"`
	// EnergyScope says what the energy per output token covers, in the
	// words every surface prints: the pages, the site, the API's
	// description and the MCP server's instructions.
	EnergyScope string `json:"energy_scope"`
}

// Licence is the index's own licence, as every snapshot's manifest records
// it (its licence block): the data a snapshot derives is published under
// it. The attribution the manifest records with it is Pages.CiteAs, filled
// for the snapshot's release.
type Licence struct {
	// ID is the licence's SPDX identifier: "CC-BY-4.0".
	ID   string `json:"id"`
	Name string `json:"name"`
	// URL is the licence's deed.
	URL string `json:"url"`
	// Scope says which files of a snapshot the licence covers.
	Scope string `json:"scope"`
}

// Carbon is what every carbon answer says of its accounting, in the
// Software Carbon Intensity's terms (ISO/IEC 21031:2024): what the energy
// priced (E) includes, and that the embodied emissions (M) are not
// included. The answer states the PUE it used beside it.
type Carbon struct {
	// Standard names the specification and its formula.
	Standard string `json:"standard"`
	// Energy says what E includes.
	Energy string `json:"energy"`
	// Embodied says that M is not included.
	Embodied string `json:"embodied"`
}

// Load returns the embedded text, decoded afresh: the caller's own copy.
// It fails when a file has an unknown key, lacks one, or has an empty
// value, so a typo cannot ship.
func Load() (*Text, error) {
	var t Text
	for _, f := range []struct {
		name string
		v    any
	}{{"leaderboard.json", &t.Leaderboard}, {"ember.json", &t.Ember}, {"tasks.json", &t.Tasks}, {"pages.json", &t.Pages}, {"licence.json", &t.Licence}, {"carbon.json", &t.Carbon}} {
		data, err := files.ReadFile(f.name)
		if err == nil {
			err = decode(data, f.v)
		}
		if err != nil {
			return nil, fmt.Errorf("sourcetext: %s: %w", f.name, err)
		}
	}
	return &t, nil
}

// decode decodes a file's data into v strictly, its top-level "_comment"
// aside: no unknown key, every key of v's fields given, no empty string,
// list, object or null anywhere.
func decode(data []byte, v any) error {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	delete(raw, "_comment")
	if err := nonEmpty("", raw); err != nil {
		return err
	}
	clean, _ := json.Marshal(raw) // decoded JSON always encodes
	dec := json.NewDecoder(bytes.NewReader(clean))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	// Every field of v must have been given: re-encoded, v has the keys raw has.
	back, _ := json.Marshal(v)
	var got map[string]any
	_ = json.Unmarshal(back, &got)
	return nonEmpty("", got)
}

// nonEmpty reports the first empty string, empty list, empty object or null
// in v, naming its key.
func nonEmpty(key string, v any) error {
	switch x := v.(type) {
	case nil:
		return fmt.Errorf("%q is empty", key)
	case string:
		if x == "" {
			return fmt.Errorf("%q is empty", key)
		}
	case []any:
		if len(x) == 0 {
			return fmt.Errorf("%q is empty", key)
		}
		for _, e := range x {
			if err := nonEmpty(key, e); err != nil {
				return err
			}
		}
	case map[string]any:
		if len(x) == 0 {
			return fmt.Errorf("%q is empty", key)
		}
		for k, e := range x {
			if key != "" {
				k = key + "." + k
			}
			if err := nonEmpty(k, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// Fill replaces each {key} in template with vars[key]. A placeholder with
// no value is an error, so a template and its caller cannot drift apart.
func Fill(template string, vars map[string]string) (string, error) {
	var b strings.Builder
	rest := template
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("sourcetext: unclosed placeholder in %q", template)
		}
		key := rest[i+1 : i+j]
		v, ok := vars[key]
		if !ok {
			return "", fmt.Errorf("sourcetext: no value for {%s} in %q", key, template)
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = rest[i+j+1:]
	}
}
