package sourcetext

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// cffEntity and cffReference are the parts of the Citation File Format
// (1.2.0) that CITATION.cff uses: decoding refuses any other key, so a
// mistyped key cannot pass unseen.
type cffEntity struct {
	Name string `yaml:"name"`
}

type cffReference struct {
	Type      string      `yaml:"type"`
	Title     string      `yaml:"title"`
	Authors   []cffEntity `yaml:"authors"`
	Publisher *cffEntity  `yaml:"publisher"`
	URL       string      `yaml:"url"`
	Version   string      `yaml:"version"`
	License   string      `yaml:"license"`
	Copyright string      `yaml:"copyright"`
	Notes     string      `yaml:"notes"`
}

type cffFile struct {
	CFFVersion        string         `yaml:"cff-version"`
	Message           string         `yaml:"message"`
	Type              string         `yaml:"type"`
	Title             string         `yaml:"title"`
	Authors           []cffEntity    `yaml:"authors"`
	License           string         `yaml:"license"`
	RepositoryCode    string         `yaml:"repository-code"`
	URL               string         `yaml:"url"`
	Keywords          []string       `yaml:"keywords"`
	PreferredCitation cffReference   `yaml:"preferred-citation"`
	References        []cffReference `yaml:"references"`
}

// spdx is a licence as the reviewed text writes it ("CC BY 4.0",
// "Apache-2.0 per the ... card") as its SPDX identifier.
func spdx(licence string) string {
	first, _, _ := strings.Cut(licence, " per ")
	return strings.ReplaceAll(first, " ", "-")
}

// TestCitationFile: CITATION.cff at the repository's root reads as the
// pages' "Cite as": the index's title, publisher and address, its data
// under the index's licence (licence.json), the code under Apache-2.0 with
// the Apache License at LICENSE, and the upstream data it builds on as the
// source blocks name them. The two cannot drift apart.
func TestCitationFile(t *testing.T) {
	data, err := os.ReadFile("../../CITATION.cff")
	if err != nil {
		t.Fatal(err)
	}
	var c cffFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("CITATION.cff: %v", err)
	}
	text, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	pg, lb, em := text.Pages, text.Leaderboard, text.Ember
	if len(c.References) != 2 {
		t.Fatalf("CITATION.cff lists %d references, want the leaderboard's and Ember's", len(c.References))
	}
	copyright := "Katonic AI Technology Ltd"
	if !strings.Contains(pg.CiteAs, "© {year} "+copyright+".") {
		t.Errorf("the pages' cite_as names no © %s: %q", copyright, pg.CiteAs)
	}
	want := cffFile{
		CFFVersion: "1.2.0", Message: c.Message, Type: "software", Title: c.Title, Authors: c.Authors,
		License: "Apache-2.0", RepositoryCode: "https://github.com/leadgreen/greentokens", URL: pg.IndexURL, Keywords: c.Keywords,
		PreferredCitation: cffReference{
			Type: "data", Title: pg.Title, Authors: []cffEntity{{pg.Publisher}}, Publisher: &cffEntity{pg.Publisher},
			URL: pg.IndexURL, License: text.Licence.ID, Copyright: copyright, Notes: c.PreferredCitation.Notes,
		},
		References: []cffReference{
			{Type: "data", Title: lb.Name, Authors: []cffEntity{{lb.Publisher}}, URL: lb.URL, Version: lb.LeaderboardVersion,
				License: spdx(lb.Licence), Notes: c.References[0].Notes},
			{Type: "data", Title: em.Title, Authors: []cffEntity{{em.Name}}, License: spdx(em.Licence)},
		},
	}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("CITATION.cff (-want +got):\n%s", diff)
	}
	for _, s := range []string{"CC BY 4.0", "Apache-2.0", "state whether you changed any rows or columns"} {
		if !strings.Contains(c.Message+c.PreferredCitation.Notes, s) {
			t.Errorf("CITATION.cff's message and notes do not say %q", s)
		}
	}
	if !strings.Contains(pg.CiteAs, "Licensed CC BY 4.0, offered as-is and without warranty; state whether you changed any rows or columns.") ||
		!strings.Contains(c.PreferredCitation.Notes, "Licensed CC BY 4.0, offered as-is and without warranty; state whether you changed any rows or columns.") {
		t.Error("CITATION.cff's notes and the pages' cite_as word the licence apart")
	}
	if !strings.Contains(c.References[0].Notes, lb.Cite) || !strings.Contains(c.References[0].Notes, lb.CiteURL) {
		t.Errorf("the leaderboard's reference does not cite %q (%s)", lb.Cite, lb.CiteURL)
	}
	licence, err := os.ReadFile("../../LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if l := strings.Fields(string(licence)); len(l) < 4 || strings.Join(l[:4], " ") != "Apache License Version 2.0," ||
		!strings.Contains(string(licence), "\n   Copyright The Green Tokens authors\n") {
		t.Errorf("LICENSE is not the Apache License 2.0 with the Green Tokens authors' notice")
	}
}
