package validate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/leadgreen/greentokens/format"
)

// vtAt is a problem's position: file, row and field.
type vtAt struct{ File, Where, Field string }

func vtPositions(ps []Problem) []vtAt {
	var out []vtAt
	for _, p := range ps {
		out = append(out, vtAt{p.File, p.Where, p.Field})
	}
	return out
}

const (
	vtM32  = "models/qwen-3-32b.json"
	vtM14  = "models/qwen-3-14b.json"
	vtChat = "sources/leaderboard/tasks/lm-arena-chat.json"
)

// tamperCase is one alteration of a good snapshot, and what Check must
// report of it.
type tamperCase struct {
	name string
	fix  vtFixture
	edit func(t *testing.T, dir string)
	want []vtAt
	msg  string // in the first problem's Msg
}

// mutate is f with its models edited by fn before they are written.
func mutate(f vtFixture, fn func(t *testing.T, ms map[string]*format.Model)) vtFixture {
	f.mutate = fn
	return f
}

// manifest edits a fixture's manifest with fn.
func manifest(fn func(m *Manifest)) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		m := vtReadManifest(t, dir)
		fn(m)
		vtWriteManifest(t, dir, m)
	}
}

// TestTamper alters a good snapshot in one way each and checks that
// Check reports exactly the problems it should, by file, row and field,
// and that the first one says the right thing.
func TestTamper(t *testing.T) {
	seed := vtFixture{leaderboard: vtSeed}
	stab := vtFixture{leaderboard: vtStabilityDir(t)}
	var tests []tamperCase
	for _, cases := range []func(seed, stab vtFixture) []tamperCase{tamperCases1, tamperCases2, tamperCases3, tamperText, tamperExports} {
		tests = append(tests, cases(seed, stab)...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := vtBuild(t, tt.fix)
			if tt.edit != nil {
				tt.edit(t, dir)
			}
			got := vtReport(t, dir)
			if tt.name == "folder named after another date" {
				// Every model file's updated and data_version then differ too.
				got = vtOnlyFile(got, ManifestPath)
			}
			if diff := cmp.Diff(tt.want, vtPositions(got)); diff != "" {
				t.Fatalf("problems (-want +got):\n%s\n%s", diff, (&Report{Dir: dir, Problems: got}).Error())
			}
			if !strings.Contains(got[0].Msg, tt.msg) {
				t.Errorf("first problem %q lacks %q", got[0].String(), tt.msg)
			}
		})
	}
}

func vtOnlyFile(ps []Problem, file string) []Problem {
	var out []Problem
	for _, p := range ps {
		if p.File == file {
			out = append(out, p)
		}
	}
	return out
}

func vtSortOutputs(m *Manifest) {
	for i := 1; i < len(m.Outputs); i++ {
		for j := i; j > 0 && m.Outputs[j].Path < m.Outputs[j-1].Path; j-- {
			m.Outputs[j], m.Outputs[j-1] = m.Outputs[j-1], m.Outputs[j]
		}
	}
}

// tamperCases1 are cases of TestTamper.
func tamperCases1(seed, stab vtFixture) []tamperCase {
	return []tamperCase{
		{
			name: "wh digit flipped, sha fixed",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtM32, true, vtReplace(t, `"wh_per_million_output_tokens": 86.84,`, `"wh_per_million_output_tokens": 86.85,`))
			},
			want: []vtAt{{vtM32, "configurations[3] (qwen-3-32b/B200/1/64)", "wh_per_million_output_tokens"}},
			msg:  "is 86.85, recomputed 86.84 from sources/leaderboard/tasks/lm-arena-chat.json configurations[105] (energy_per_token_joules 0.31263251437703116 x 1e6 / 3600 = 86.84236510473089)",
			// configurations[105] of the seed version is Qwen/Qwen3-32B on one B200 at 64 sequences: its energy_per_token_joules, and that x 1e6 / 3600 (checked with Python).
		},
		{
			name: "wh digit flipped, sha not fixed",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtM32, false, vtReplace(t, `"wh_per_million_output_tokens": 86.84,`, `"wh_per_million_output_tokens": 86.85,`))
			},
			want: []vtAt{
				{ManifestPath, "outputs[16] (models/qwen-3-32b.json)", "sha256"},
				{vtM32, "configurations[3] (qwen-3-32b/B200/1/64)", "wh_per_million_output_tokens"},
			},
			msg: "but the file on disk hashes to",
		},
		{
			name: "best points at the wrong configuration",
			fix: mutate(seed, func(t *testing.T, ms map[string]*format.Model) {
				m := ms["qwen-3-32b"]
				m.Best["H100"] = m.Configurations[19]
			}),
			want: []vtAt{{vtM32, "best.H100 (qwen-3-32b/H100/2/256)", "row_id"}},
			msg:  "is qwen-3-32b/H100/2/192, recomputed qwen-3-32b/H100/2/256: the lowest unrounded energy per token",
		},
		{
			name: "best entry of a GPU dropped",
			fix: mutate(seed, func(t *testing.T, ms map[string]*format.Model) {
				delete(ms["qwen-3-32b"].Best, "H100")
			}),
			want: []vtAt{{vtM32, "", "best.H100"}},
			msg:  "is missing, recomputed an object (row_id qwen-3-32b/H100/2/256): the lowest unrounded energy per token among Qwen/Qwen3-32B's H100 configurations with median_itl_ms <= 500, from sources/leaderboard/tasks/lm-arena-chat.json configurations[",
		},
		{
			name: "best entry of a GPU the model was not measured on",
			fix: mutate(seed, func(t *testing.T, ms map[string]*format.Model) {
				m := ms["qwen-3-32b"]
				m.Best["H200"] = m.Best["H100"]
			}),
			want: []vtAt{{vtM32, "", "best.H200"}},
			msg:  "is not a field of the recomputed file: no stable configuration of Qwen/Qwen3-32B on H200 has a median inter-token latency within 500 ms",
		},
		{
			name: "best entry differs from its configuration",
			fix: mutate(seed, func(t *testing.T, ms map[string]*format.Model) {
				m := ms["qwen-3-32b"]
				b := m.Best["B200"]
				b.TokensPerSecond += 0.1
				m.Best["B200"] = b
			}),
			want: []vtAt{{vtM32, "best.B200 (qwen-3-32b/B200/1/384)", "tokens_per_second"}},
			msg:  "recomputed",
		},
		{
			name: "repeat and row_id of a measured-twice run",
			fix: mutate(seed, func(t *testing.T, ms map[string]*format.Model) {
				m := ms["qwen-3-30b-a3b-instruct"]
				for i, c := range m.Configurations {
					if c.Repeat == 2 && c.MaxNumSeqs == 256 {
						m.Configurations[i].Repeat = 1
						m.Configurations[i].RowID = strings.TrimSuffix(c.RowID, "/r2")
						return
					}
				}
				t.Fatal("no repeated run at cap 256")
			}),
			want: []vtAt{
				{"models/qwen-3-30b-a3b-instruct.json", "configurations[25] (qwen-3-30b-a3b-instruct/H100/2/256/r2)", "row_id"},
				{"models/qwen-3-30b-a3b-instruct.json", "configurations[25] (qwen-3-30b-a3b-instruct/H100/2/256/r2)", "repeat"},
			},
			msg: `is "qwen-3-30b-a3b-instruct/H100/2/256", recomputed "qwen-3-30b-a3b-instruct/H100/2/256/r2"`,
		},
		{
			name: "under_itl_deadline flipped",
			fix: mutate(seed, func(t *testing.T, ms map[string]*format.Model) {
				ms["qwen-3-32b"].Configurations[0].UnderITLDeadline = false
			}),
			want: []vtAt{{vtM32, "configurations[0] (qwen-3-32b/B200/1/8)", "under_itl_deadline"}},
			msg:  "is false, recomputed true from sources/leaderboard/tasks/lm-arena-chat.json configurations[",
		},
		{
			name: "configuration dropped",
			fix: mutate(seed, func(t *testing.T, ms map[string]*format.Model) {
				m := ms["qwen-3-32b"]
				m.Configurations = append(m.Configurations[:5:5], m.Configurations[6:]...)
			}),
			want: []vtAt{{vtM32, "", "configurations"}, {vtM32, "", "configurations"}},
			msg:  "has 21 entries, recomputed 22",
		},
		{
			name: "archived source byte altered",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, "sources/leaderboard/index.json", false, vtReplace(t, `"architectures": {`, `"architectures":	{`))
			},
			want: []vtAt{{ManifestPath, "sources[1] (sources/leaderboard/index.json)", "sha256"}},
			msg:  "but the file on disk hashes to",
		},
		{
			name: "archived figure altered, sha fixed",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				// Qwen 3 32B on 1 x B200 at cap 64: 0.3126325... J per token.
				vtEditFile(t, dir, vtChat, true, vtReplace(t, `"energy_per_token_joules": 0.31263`, `"energy_per_token_joules": 0.31363`))
			},
			want: []vtAt{
				{vtM32, "configurations[3] (qwen-3-32b/B200/1/64)", "wh_per_million_output_tokens"},
				{vtM32, "configurations[3] (qwen-3-32b/B200/1/64)", "joules_per_output_token"},
			},
			msg: "is 86.84, recomputed 87.12",
		},
	}
}

// tamperCases2 are cases of TestTamper.
func tamperCases2(seed, stab vtFixture) []tamperCase {
	return []tamperCase{
		{
			name: "model file missing",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "models", "qwen-3-14b.json")); err != nil {
					t.Fatal(err)
				}
			},
			want: []vtAt{{vtM14, "", ""}, {vtM14, "", ""}},
			msg:  "is listed in manifest.json outputs[12] but missing from the snapshot folder",
		},
		{
			name: "stray file",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			want: []vtAt{{"notes.txt", "", ""}},
			msg:  "is in the snapshot folder but not listed in manifest.json outputs",
		},
		{
			name: "stray model file, listed",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				b, err := os.ReadFile(filepath.Join(dir, vtM14))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "models", "qwen-3-14b-copy.json"), b, 0o644); err != nil {
					t.Fatal(err)
				}
				m := vtReadManifest(t, dir)
				m.Outputs = append(m.Outputs, vtFileEntry("models/qwen-3-14b-copy.json", b))
				vtSortOutputs(m)
				vtWriteManifest(t, dir, m)
			},
			want: []vtAt{{"models/qwen-3-14b-copy.json", "", ""}},
			msg:  "is not a recomputed model file",
		},
		{
			name: "output not listed",
			fix:  seed,
			edit: manifest(func(m *Manifest) {
				for i, o := range m.Outputs {
					if o.Path == vtM14 {
						m.Outputs = append(m.Outputs[:i:i], m.Outputs[i+1:]...)
						return
					}
				}
			}),
			want: []vtAt{{vtM14, "", ""}},
			msg:  "is in the snapshot folder but not listed in manifest.json outputs",
		},
		{
			name: "output size wrong",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Outputs[0].Size++ }),
			want: []vtAt{{ManifestPath, "outputs[0] (models/deepseek-v3-1.json)", "size"}},
			msg:  "but the file on disk has",
		},
		{
			name: "keys out of order",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtM32, true, vtReplace(t, "  \"updated\": \"2026-09-27\",\n  \"data_version\": \"2026-09-27\",", "  \"data_version\": \"2026-09-27\",\n  \"updated\": \"2026-09-27\","))
			},
			want: []vtAt{{vtM32, "", ""}},
			msg:  "has its keys out of order: version, data_version, updated,",
		},
		{
			name: "trailing newline",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtM32, true, func(b []byte) []byte { return append(b, '\n') })
			},
			want: []vtAt{{vtM32, "", ""}},
			msg:  "has the recomputed values but not the published layout",
		},
		{
			name: "number printed without .0",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtM32, true, vtReplace(t, `"params_b": 32.0,`, `"params_b": 32,`))
			},
			want: []vtAt{{vtM32, "", "params_b"}},
			msg:  "is 32, recomputed 32.0",
		},
		{
			name: "fixed text altered",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtM32, true, vtReplace(t, "Every figure is a floor", "Every figure is a ceiling"))
			},
			want: []vtAt{{vtM32, "", "caveat"}},
			msg:  "differs from the recomputed text at character",
		},
	}
}

// tamperCases3 are cases of TestTamper.
func tamperCases3(seed, stab vtFixture) []tamperCase {
	return []tamperCase{
		{
			name: "retrieved date altered",
			fix:  seed,
			edit: func(t *testing.T, dir string) {
				vtEditFile(t, dir, vtM32, true, vtReplace(t, `"retrieved": "2026-09-26"`, `"retrieved": "2026-09-25"`))
			},
			want: []vtAt{{vtM32, "", "source.retrieved"}},
			msg:  `is "2026-09-25", recomputed "2026-09-26"`,
		},
		{
			name: "evidence conflict where the dates agree",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Evidence.Conflict = "made up" }),
			want: []vtAt{{ManifestPath, "", "evidence.conflict"}},
			msg:  "is not a field of the recomputed file (none: sources/leaderboard/index.json last_updated and the newest commit's UTC date agree, 2026-02-16)",
		},
		{
			name: "evidence without conflict where the dates differ",
			fix:  stab,
			edit: manifest(func(m *Manifest) { m.Evidence.Conflict = "" }),
			want: []vtAt{{ManifestPath, "", "evidence.conflict"}},
			msg:  `is missing, recomputed "index.json last_updated is 2026-03-02 but the newest commit to public/data/tasks"... from the fixed text's template, as sources/leaderboard/index.json last_updated 2026-03-02 and the newest commit's UTC date 2026-03-03 (sources/leaderboard/commits.json [0]) differ`,
		},
		{
			name: "evidence conflict altered",
			fix:  stab,
			edit: manifest(func(m *Manifest) {
				m.Evidence.Conflict = strings.Replace(m.Evidence.Conflict, "the index date is used", "the commit date is used", 1)
			}),
			want: []vtAt{{ManifestPath, "", "evidence.conflict"}},
			msg:  `is ..."2026-03-03 UTC; the commit date is used", recomputed ..."2026-03-03 UTC; the index date is used" from the fixed text's template`,
		},
		{
			name: "evidence commit sha",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Evidence.LastCommitSHA = strings.Repeat("0", 40) }),
			want: []vtAt{{ManifestPath, "", "evidence.last_commit_sha"}},
			msg:  "recomputed \"7885788",
		},
		{
			name: "selection deadline",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Selection.ITLDeadlineMS = 400 }),
			want: []vtAt{{ManifestPath, "", "selection.itl_deadline_ms"}},
			msg:  "is 400, recomputed 500 (the published rule)",
		},
		{
			name: "exclusion missing",
			fix:  stab,
			edit: manifest(func(m *Manifest) { m.Exclusions = m.Exclusions[1:] }),
			want: []vtAt{{ManifestPath, "", "exclusions"}},
			msg:  "lacks lm-arena-chat configurations[3] (test-org/Test-LM-7B on 1 x H100, max_num_seqs 64), which the stability filter excludes: avg_batch_size 40 is under 0.85 x max_num_seqs 64",
		},
		{
			name: "cascade exclusion missing",
			fix:  stab,
			edit: manifest(func(m *Manifest) { m.Exclusions = append(m.Exclusions[:2:2], m.Exclusions[3:]...) }),
			want: []vtAt{{ManifestPath, "", "exclusions"}},
			msg:  "lacks lm-arena-chat configurations[5] (test-org/Test-LM-7B on 1 x H100, max_num_seqs 256), which the stability filter excludes: cascade",
		},
		{
			name: "stable row listed as excluded",
			fix:  stab,
			edit: manifest(func(m *Manifest) {
				m.Exclusions = append(m.Exclusions, ManifestExclusion{Task: "lm-arena-chat", Row: 2, ModelID: "test-org/Test-LM-7B", GPU: "H100", NumGPUs: 1, MaxNumSeqs: 32, Reason: "made up"})
			}),
			want: []vtAt{{ManifestPath, "exclusions[8]", ""}},
			msg:  "which the stability filter keeps",
		},
		{
			name: "unpublished task in the selection",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Selection.Tasks = append(m.Selection.Tasks, "audio-chat") }),
			want: []vtAt{{ManifestPath, "", "selection.tasks"}},
			msg:  `lists "audio-chat", which is not a published task`,
		},
		{
			name: "gpqa in selection but its exclusions missing",
			fix:  stab,
			edit: manifest(func(m *Manifest) { m.Selection.Tasks = append(m.Selection.Tasks, "gpqa") }),
			// Its files are missing too.
			want: []vtAt{{"tasks/gpqa/models/test-lm-7b-chat.json", "", ""}, {"tasks/gpqa/index.json", "", ""},
				{ManifestPath, "", "exclusions"}, {ManifestPath, "", "exclusions"}},
			msg: "is missing: it is recomputed from sources/leaderboard/tasks/gpqa.json",
		},
		{
			name: "exclusion of a task outside the selection",
			fix:  vtFixture{leaderboard: stab.leaderboard, tasks: []string{"lm-arena-chat", "gpqa"}},
			edit: manifest(func(m *Manifest) { m.Selection.Tasks = m.Selection.Tasks[:1] }),
			// Its files are no task's of the selection's.
			want: []vtAt{{"tasks/gpqa/index.json", "", ""}, {"tasks/gpqa/models/test-lm-7b-chat.json", "", ""},
				{ManifestPath, "exclusions[8]", "task"}, {ManifestPath, "exclusions[9]", "task"}},
			msg: "is not a recomputed file: no task of selection.tasks",
		},
		{
			name: "folder named after another date",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Date = "2026-09-28" }),
			want: []vtAt{
				// The attribution names the release the manifest says.
				{ManifestPath, "", "date"}, {ManifestPath, "", "licence.attribution"},
			},
			msg: "is 2026-09-28, but the snapshot folder is named 2026-09-27",
		},
	}
}

// emberSource edits the manifest's entry of Ember's CSV with fn.
func emberSource(fn func(src *ManifestSource)) func(t *testing.T, dir string) {
	return manifest(func(m *Manifest) {
		for i := range m.Sources {
			if m.Sources[i].Name == gridEmberName {
				fn(&m.Sources[i])
			}
		}
	})
}

// tamperText are cases of TestTamper: the fixed, reviewed text
// (internal/sourcetext) that grid.json and the manifest carry, altered.
func tamperText(seed, stab vtFixture) []tamperCase {
	withGrid := vtFixture{leaderboard: seed.leaderboard, grid: true}
	const emberAt = "sources[0] (" + gridSourceFile + ")"
	editGrid := func(old, new string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) { vtEditFile(t, dir, gridOutputFile, true, vtReplace(t, old, new)) }
	}
	return []tamperCase{
		{
			name: "grid definition altered",
			fix:  withGrid,
			edit: editGrid("so upstream methane", "so no upstream methane"),
			want: []vtAt{{gridOutputFile, "", "source.definition"}},
			msg:  `differs from the recomputed text at character`,
		},
		{
			name: "grid release spelled otherwise",
			fix:  withGrid,
			edit: editGrid(`"release": "not stated"`, `"release": "Not Stated"`),
			want: []vtAt{{gridOutputFile, "", "source.release"}},
			msg:  `is "Not Stated", recomputed "not stated" (the release name the build was told, or the reviewed text for none)`,
		},
		{
			name: "grid release holding a control character",
			fix:  withGrid,
			edit: editGrid(`"release": "not stated"`, `"release": "September\u00072026"`),
			want: []vtAt{{gridOutputFile, "", "source.release"}},
			msg:  `is "September\a2026", recomputed "not stated"`,
		},
		{
			// The schema holds these to their value too; the
			// recomputation names where the text comes from.
			name: "grid licence, unit, name, title and version altered",
			fix:  withGrid,
			edit: func(t *testing.T, dir string) {
				for _, e := range [][2]string{{`"licence": "CC BY 4.0"`, `"licence": "CC BY-SA 4.0"`}, {`"unit": "g CO2e per kWh"`, `"unit": "g CO2 per kWh"`},
					{`"name": "Ember"`, `"name": "Ember Climate"`}, {`"title": "Yearly electricity data"`, `"title": "Monthly electricity data"`}, {`"version": "1"`, `"version": "2"`}} {
					editGrid(e[0], e[1])(t, dir)
				}
			},
			want: []vtAt{
				{gridOutputFile, "", "source.licence"}, {gridOutputFile, "", "source.name"}, {gridOutputFile, "", "source.title"},
				{gridOutputFile, "", "unit"}, {gridOutputFile, "", "version"},
				{gridOutputFile, "", "version"}, {gridOutputFile, "", "unit"}, {gridOutputFile, "", "source.name"},
				{gridOutputFile, "", "source.title"}, {gridOutputFile, "", "source.licence"},
			},
			msg: "does not match grid.schema.json",
		},
		{
			name: "Ember's producer altered in the manifest",
			fix:  withGrid,
			edit: emberSource(func(src *ManifestSource) { src.Producer = "Ember Climate" }),
			want: []vtAt{{ManifestPath, emberAt, "producer"}},
			msg:  `is "Ember Climate", but the reviewed text (internal/sourcetext) is "Ember"`,
		},
		{
			name: "Ember's licence altered in the manifest",
			fix:  withGrid,
			edit: emberSource(func(src *ManifestSource) { src.Licence = "CC BY-SA 4.0" }),
			want: []vtAt{{ManifestPath, emberAt, "licence"}},
			msg:  `is "CC BY-SA 4.0", but the reviewed text (internal/sourcetext) is "CC BY 4.0"`,
		},
		{
			name: "a leaderboard file's producer and licence altered in the manifest",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Sources[0].Producer, m.Sources[0].Licence = "GitHub", "MIT" }),
			want: []vtAt{{ManifestPath, "sources[0] (sources/leaderboard/commits.json)", "producer"}, {ManifestPath, "sources[0] (sources/leaderboard/commits.json)", "licence"}},
			msg:  `is "GitHub", but the reviewed text (internal/sourcetext) is "The ML.ENERGY Initiative"`,
		},
		{
			name: "the snapshot's licence missing",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Licence = nil }),
			want: []vtAt{{ManifestPath, "", "licence"}},
			msg:  `is missing: a snapshot records the index's own licence, CC-BY-4.0`,
		},
		{
			name: "the snapshot's licence named otherwise",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Licence.Name, m.Licence.Scope = "CC BY-NC 4.0", "every file" }),
			want: []vtAt{{ManifestPath, "", "licence.name"}, {ManifestPath, "", "licence.scope"}},
			msg:  `is "CC BY-NC 4.0", recomputed "Creative Commons Attribution 4.0 International" (internal/sourcetext: licence.json)`,
		},
		{
			// The schema holds the id and the deed to their value too.
			name: "the snapshot's licence id and deed altered",
			fix:  seed,
			edit: manifest(func(m *Manifest) {
				m.Licence.ID, m.Licence.URL = "CC-BY-NC-4.0", "https://creativecommons.org/licenses/by-nc/4.0/"
			}),
			want: []vtAt{{ManifestPath, "", "licence.id"}, {ManifestPath, "", "licence.url"}, {ManifestPath, "", "licence.id"}, {ManifestPath, "", "licence.url"}},
			msg:  `is "CC-BY-NC-4.0", recomputed "CC-BY-4.0" (internal/sourcetext: licence.json)`,
		},
		{
			name: "the snapshot's attribution altered",
			fix:  seed,
			edit: manifest(func(m *Manifest) {
				m.Licence.Attribution = strings.Replace(m.Licence.Attribution, "; state whether you changed any rows or columns", "", 1)
			}),
			want: []vtAt{{ManifestPath, "", "licence.attribution"}},
			msg:  `differs from the recomputed text at character 239: is ..."and without warranty.", recomputed ..."and without warranty; state whether you changed any rows or "... (internal/sourcetext: the pages' cite_as, for release 2026-09-27)`,
		},
		{
			// A value of any length is shown around its first difference.
			name: "the snapshot's attribution a megabyte long",
			fix:  seed,
			edit: manifest(func(m *Manifest) { m.Licence.Attribution += strings.Repeat("x", 1<<20) }),
			want: []vtAt{{ManifestPath, "", "licence.attribution"}},
			msg:  `differs from the recomputed text at character 287: is ..."any rows or columns.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"..., recomputed ..."any rows or columns." (internal/sourcetext`,
		},
		{
			name: "the manifest's reference-year rule altered",
			fix:  withGrid,
			edit: manifest(func(m *Manifest) { m.Grid.YearRule = "the latest year" }),
			want: []vtAt{{ManifestPath, "", "grid.year_rule"}, {ManifestPath, "", "grid.year_rule"}},
			msg:  "does not match manifest.schema.json",
		},
	}
}

// TestFixtureWithGrid: the fixture with the sample's Ember CSV and grid.json
// passes Check, so each tamper case's problems are its edit's.
func TestFixtureWithGrid(t *testing.T) {
	if ps := vtReport(t, vtBuild(t, vtFixture{leaderboard: vtSeed, grid: true})); ps != nil {
		t.Fatalf("problems: %v", ps)
	}
}
