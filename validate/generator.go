package validate

import (
	"regexp"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// revisionShape is a full git commit id, SHA-1 or SHA-256, as Go records
// vcs.revision.
var revisionShape = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)

// CheckGenerator checks the manifest's generator, the code that wrote the
// snapshot, against the shapes Go writes into a binary's build information
// (runtime/debug.ReadBuildInfo), golang.org/x/mod being the reference for
// module paths and versions:
//
//   - module: an import path (module.CheckImportPath);
//   - version: "(devel)", or a module version in full
//     (semver.IsValid, vMAJOR.MINOR.PATCH with any pre-release, a
//     pseudo-version too), with no build metadata but "+incompatible" or
//     "+dirty", the one Go adds for a checkout with changes, which
//     "modified" then says;
//   - revision: empty, or a full commit id of 40 or 64 lower-case hex
//     digits; the commit a pseudo-version names is its prefix.
//
// The generator is what an auditor is told to fetch and run (verify prints
// the command), so anything else is a problem, its value quoted. Each
// problem names manifest.json's generator and the field.
func CheckGenerator(g ManifestGenerator) []Problem {
	ps := &problems{file: ManifestPath}
	if err := module.CheckImportPath(g.Module); err != nil {
		ps.add("generator", "module", "is %q, not a module path as Go records it: %v", g.Module, err)
	}
	v := g.Version
	switch build := semver.Build(v); {
	case v == "(devel)":
	case !semver.IsValid(v) || semver.Canonical(v)+build != v:
		ps.add("generator", "version", `is %q, not a module version as Go records it (a tag or pseudo-version in full, "vMAJOR.MINOR.PATCH..." by golang.org/x/mod/semver, or "(devel)")`, v)
	case build != "" && build != "+incompatible" && build != "+dirty":
		ps.add("generator", "version", `is %q: Go adds no build metadata but "+incompatible" or "+dirty"`, v)
	case build == "+dirty" && !g.Modified:
		ps.add("generator", "version", `is %q, a build from a checkout with changes, but "modified" is false`, v)
	}
	if g.Revision != "" && !revisionShape.MatchString(g.Revision) {
		ps.add("generator", "revision", "is %q, not a full commit id (40 or 64 lower-case hex digits) as Go records it", g.Revision)
	} else if g.Revision != "" && module.IsPseudoVersion(v) {
		if rev, err := module.PseudoVersionRev(v); err == nil && !strings.HasPrefix(g.Revision, rev) {
			ps.add("generator", "revision", "is %q, but the version %q names the commit %q", g.Revision, v, rev)
		}
	}
	return ps.list
}
