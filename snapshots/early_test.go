package snapshots

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/leadgreen/greentokens/validate"
)

// earlyCheck checks dir as a build does: validate.Early on the Ember CSV
// (read here from the finished file), then Early.Snapshot.
func earlyCheck(t *testing.T, dir string) error {
	t.Helper()
	e := validate.Begin(context.Background(), dir)
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(emberArchive)))
	if err != nil {
		t.Fatal(err)
	}
	e.Ember(emberArchive, f)
	return e.Snapshot()
}

func problemsOf(t *testing.T, err error) []validate.Problem {
	t.Helper()
	if err == nil {
		return nil
	}
	var rep *validate.Report
	if !errors.As(err, &rep) {
		t.Fatalf("not a report: %v", err)
	}
	return rep.Problems
}

// TestEarlyFindsWhatSnapshotFinds: the build's validation, which reads and
// hashes the Ember CSV early (validate.Early), finds exactly what
// validate.SnapshotContext finds from the folder alone, on a good snapshot
// and on each kind of damage: the CSV's bytes, another source's, and the
// manifest's sha256 of the CSV (the early read is then not used, and the
// CSV read again).
func TestEarlyFindsWhatSnapshotFinds(t *testing.T) {
	germany := regexp.MustCompile(`(?m)^(Germany,DEU,.*,gCO2/kWh,)[0-9.]+,`)
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"good", func(*testing.T, string) {}},
		{"Ember value", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, filepath.FromSlash(emberArchive)), func(b []byte) []byte {
				return germany.ReplaceAll(b, []byte("${1}1.5,"))
			})
		}},
		{"task figure", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, "sources", "leaderboard", "tasks", "lm-arena-chat.json"), func(b []byte) []byte {
				return bytes.Replace(b, []byte(`"median_itl_ms": `), []byte(`"median_itl_ms": 1`), 1)
			})
		}},
		{"manifest sha256 of the Ember CSV", func(t *testing.T, dir string) {
			edit(t, filepath.Join(dir, ManifestName), func(b []byte) []byte {
				m := Manifest{}
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatal(err)
				}
				for i := range m.Sources {
					if m.Sources[i].Path == emberArchive {
						return bytes.Replace(b, []byte(m.Sources[i].SHA256), []byte(strings.Repeat("0", 64)), 1)
					}
				}
				t.Fatal("no Ember source in the manifest")
				return nil
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copySnapshot(t)
			tc.damage(t, dir)
			want := problemsOf(t, validate.SnapshotContext(context.Background(), dir))
			got := problemsOf(t, earlyCheck(t, dir))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the early checks differ from validate.SnapshotContext (-want +got):\n%s", diff)
			}
			if (tc.name == "good") != (len(got) == 0) {
				t.Errorf("%d problems: %v", len(got), got)
			}
		})
	}
}

func edit(t *testing.T, p string, fn func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	nb := fn(b)
	if bytes.Equal(nb, b) {
		t.Fatalf("%s: the edit changed nothing", p)
	}
	if err := os.WriteFile(p, nb, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTailReader: a reader that follows a staged file reads exactly the
// bytes written, waiting for them, and ends with io.EOF at the commit, or
// with an error when the file is given up.
func TestTailReader(t *testing.T) {
	for _, commit := range []bool{true, false} {
		t.Run(map[bool]string{true: "commit", false: "abort"}[commit], func(t *testing.T) {
			st, err := newStage(t.TempDir(), seedDate)
			if err != nil {
				t.Fatal(err)
			}
			defer st.close()
			w, err := st.open("sources/x.csv")
			if err != nil {
				t.Fatal(err)
			}
			r, err := w.follow()
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				b   []byte
				err error
			}
			got := make(chan result)
			go func() {
				b, err := io.ReadAll(r)
				r.Close()
				got <- result{b, err}
			}()
			var want []byte
			for i := range 50 {
				chunk := bytes.Repeat([]byte{byte('a' + i%26)}, 1000+i)
				want = append(want, chunk...)
				if _, err := w.Write(chunk); err != nil {
					t.Fatal(err)
				}
				if i%10 == 0 {
					select {
					case res := <-got:
						t.Fatalf("the reader ended before the file did, after %d bytes: %v", len(res.b), res.err)
					case <-time.After(time.Millisecond):
					}
				}
			}
			if commit {
				if _, err := w.commit(); err != nil {
					t.Fatal(err)
				}
			} else {
				w.abort()
			}
			res := <-got
			switch {
			case commit && (res.err != nil || !bytes.Equal(res.b, want)):
				t.Errorf("read %d bytes (%v), want the %d written", len(res.b), res.err, len(want))
			case !commit && !errors.Is(res.err, errTailAborted):
				t.Errorf("after an abort: %v, want errTailAborted", res.err)
			}
		})
	}
}

// TestEmberChangedAfterEarlyRead: a build whose staged Ember CSV changes
// after validate.Early read it (bytes appended, a digit flipped) fails
// validation with the problems validate.SnapshotContext finds in the
// folder, as before the CSV was read early: the rows Early read are used
// only while the file on disk still holds those bytes.
func TestEmberChangedAfterEarlyRead(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   func([]byte) []byte
	}{
		{"appended", func(b []byte) []byte { return append(b, "Nowhere,XXX,2022,x,x,gCO2/kWh,1.0,\n"...) }},
		{"flipped", func(b []byte) []byte {
			b = bytes.Clone(b)
			i := bytes.Index(b, []byte("gCO2/kWh,"))
			b[i+len("gCO2/kWh,")] ^= 1
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			real := validateSnapshot
			t.Cleanup(func() { validateSnapshot = real })
			validateSnapshot = func(ctx context.Context, dir string, early *validate.Early) error {
				early.Wait() // the early read is over: now change the file
				edit(t, filepath.Join(dir, filepath.FromSlash(emberArchive)), tc.fn)
				err := real(ctx, dir, early)
				// What the folder alone gives: the changed file read again.
				want := problemsOf(t, validate.SnapshotContext(ctx, dir))
				if diff := cmp.Diff(want, problemsOf(t, err)); diff != "" {
					t.Errorf("the build's checks differ from validate.SnapshotContext (-want +got):\n%s", diff)
				}
				return err
			}
			if _, err := build(t, out, seedSource()); !errors.Is(err, ErrValidation) || !strings.Contains(err.Error(), emberArchive) {
				t.Errorf("build with the Ember CSV changed after it was read: %v; want ErrValidation naming %s", err, emberArchive)
			}
			assertEmpty(t, out)
		})
	}
}
