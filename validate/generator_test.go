package validate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCheckGenerator: the generator is accepted in the shapes Go writes
// into a binary's build information (each "ok" row is what go1.26 stamps:
// go build in a clean clone, with changes, at a tag, after one; go install
// MODULE@VERSION; go run, a worktree or -buildvcs=false), and anything
// else is a problem on its field that shows the value quoted.
func TestCheckGenerator(t *testing.T) {
	const (
		m      = "github.com/leadgreen/greentokens"
		rev    = "9d8f9220dfbf099d64dee9b2edddb8823b2c8e03"
		pseudo = "v0.0.0-20261201225027-9d8f9220dfbf"
	)
	for _, tc := range []struct {
		name  string
		g     ManifestGenerator
		field string // "" when the generator is accepted
		shown string // in the problem: the value, quoted
	}{
		{"go build in a clean clone", ManifestGenerator{Module: m, Version: pseudo, Revision: rev}, "", ""},
		{"go build with changes", ManifestGenerator{Module: m, Version: pseudo + "+dirty", Revision: rev, Modified: true}, "", ""},
		{"go build at a tag", ManifestGenerator{Module: m, Version: "v1.2.3", Revision: rev}, "", ""},
		{"go build after a tag", ManifestGenerator{Module: m, Version: "v1.2.4-0.20261201225032-9d8f9220dfbf", Revision: rev}, "", ""},
		{"go build at a pre-release tag, with changes", ManifestGenerator{Module: m, Version: "v1.3.0-rc.1+dirty", Revision: rev, Modified: true}, "", ""},
		{"go install MODULE@VERSION", ManifestGenerator{Module: m, Version: "v1.2.3"}, "", ""},
		{"go install of a module without go.mod at v2", ManifestGenerator{Module: m, Version: "v2.0.0+incompatible"}, "", ""},
		{"go run MODULE@REV", ManifestGenerator{Module: m, Version: pseudo}, "", ""},
		{"go run, a worktree, -buildvcs=false", ManifestGenerator{Module: m, Version: "(devel)"}, "", ""},
		{"a SHA-256 repository", ManifestGenerator{Module: m, Version: "(devel)", Revision: strings.Repeat("ab", 32)}, "", ""},

		{"a command in the version", ManifestGenerator{Module: m, Version: "v1.0.0 verify x; touch pwned; true"}, "version", `"v1.0.0 verify x; touch pwned; true"`},
		{"an escape sequence in the version", ManifestGenerator{Module: m, Version: "v1.0.0\x1b[2J"}, "version", `"v1.0.0\x1b[2J"`},
		{"a query, not a version", ManifestGenerator{Module: m, Version: "v1"}, "version", `"v1"`},
		{"no v", ManifestGenerator{Module: m, Version: "1.2.3"}, "version", `"1.2.3"`},
		{"empty", ManifestGenerator{Module: m}, "version", `""`},
		{"build metadata Go does not write", ManifestGenerator{Module: m, Version: "v1.2.3+evil"}, "version", `"v1.2.3+evil"`},
		{"+dirty, not modified", ManifestGenerator{Module: m, Version: pseudo + "+dirty", Revision: rev}, "version", `"` + pseudo + `+dirty"`},
		{"a command in the revision", ManifestGenerator{Module: m, Version: "(devel)", Revision: "$(touch pwned)"}, "revision", `"$(touch pwned)"`},
		{"a short revision", ManifestGenerator{Module: m, Version: "(devel)", Revision: rev[:12]}, "revision", `"` + rev[:12] + `"`},
		{"upper-case hex", ManifestGenerator{Module: m, Version: "(devel)", Revision: strings.ToUpper(rev)}, "revision", `"` + strings.ToUpper(rev) + `"`},
		{"a pseudo-version of another commit", ManifestGenerator{Module: m, Version: "v0.0.0-20261201225027-0123456789ab", Revision: rev}, "revision", `"v0.0.0-20261201225027-0123456789ab"`},
		{"a command in the module", ManifestGenerator{Module: m + "; touch pwned", Version: "(devel)"}, "module", `"` + m + `; touch pwned"`},
		{"a line break in the module", ManifestGenerator{Module: m + "\nx", Version: "(devel)"}, "module", `"` + m + `\nx"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckGenerator(tc.g)
			var want []vtAt
			if tc.field != "" {
				want = []vtAt{{ManifestPath, "generator", tc.field}}
			}
			if diff := cmp.Diff(want, vtPositions(got)); diff != "" {
				t.Fatalf("problems (-want +got):\n%s\n%v", diff, got)
			}
			if tc.field != "" && !strings.Contains(got[0].Msg, tc.shown) {
				t.Errorf("%q does not show the value quoted, %s", got[0].Msg, tc.shown)
			}
		})
	}
}

// TestCheckReportsTheGenerator: Check reports a generator Go would not
// write, so that verify fails on it.
func TestCheckReportsTheGenerator(t *testing.T) {
	dir := vtBuild(t, vtFixture{leaderboard: vtSeed})
	manifest(func(m *Manifest) { m.Generator.Version = "v1.0.0 verify x; touch pwned; true" })(t, dir)
	got := vtReport(t, dir)
	want := []vtAt{{ManifestPath, "generator", "version"}}
	if diff := cmp.Diff(want, vtPositions(got)); diff != "" {
		t.Fatalf("problems (-want +got):\n%s\n%v", diff, got)
	}
}
