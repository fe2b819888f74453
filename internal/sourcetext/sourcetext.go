// Package sourcetext holds the reviewed, fixed text that every published file
// carries about its upstream source: names, licences, method, citation. The
// text lives in JSON files embedded in the binary, so it is reviewed in one
// place rather than spread through code. LoadLeaderboard is the one loader
// that the builder (transform/, which writes the text) and the checker
// (validate/, which checks it) share; the checker fills the text's templates
// with its own code, so Fill is the builder's and the renderers' only.
package sourcetext

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

//go:embed leaderboard.json
var leaderboardJSON []byte

// Leaderboard is the fixed text of the ML.ENERGY Leaderboard source block.
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
	Unit                   string   `json:"unit"`
	Boundary               string   `json:"boundary"`
}

// LoadLeaderboard returns the embedded leaderboard text. It fails when the
// file has an unknown key or an empty value, so a typo cannot ship.
func LoadLeaderboard() (*Leaderboard, error) {
	var l Leaderboard
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(leaderboardJSON, &raw); err != nil {
		return nil, fmt.Errorf("sourcetext: leaderboard.json: %w", err)
	}
	delete(raw, "_comment")
	clean, _ := json.Marshal(raw)
	dec := json.NewDecoder(strings.NewReader(string(clean)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return nil, fmt.Errorf("sourcetext: leaderboard.json: %w", err)
	}
	for k, v := range raw {
		if string(v) == `""` || string(v) == "[]" || string(v) == "null" {
			return nil, fmt.Errorf("sourcetext: leaderboard.json: %q is empty", k)
		}
	}
	return &l, nil
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
