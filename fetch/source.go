// Package fetch gets the upstream files the index is built from: the ML.ENERGY
// Leaderboard's JSON (index, task files, and the GitHub commit that last
// touched the task files) and Ember's yearly electricity CSV.
//
// A Source hands out one upstream file by its name, the path it is archived
// under in a snapshot's sources/ folder ("leaderboard/index.json"). Two
// implementations: HTTP (the real URLs by default, with bounded retries) and
// Dir (a folder laid out like a snapshot's sources/, for offline builds and
// for tests, which never touch the network).
package fetch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/regfile"
)

// Names of the upstream files, as archived under a snapshot's sources/.
// Ember's yearly CSV has one name per layout: a Source hands out the file
// under either (IsEmber), and a build archives it under the name of the
// layout its header tells.
const (
	LeaderboardIndex   = "leaderboard/index.json"
	LeaderboardCommits = "leaderboard/commits.json"
	// EmberGlobal is Ember's yearly CSV in the layout it has published
	// since July 2026 (release_generation_yearly_global.csv).
	EmberGlobal = "ember/release_generation_yearly_global.csv"
	// EmberYearly is Ember's yearly CSV in the long layout it published
	// until then (yearly_full_release_long_format.csv).
	EmberYearly = "ember/yearly_full_release_long_format.csv"
)

// IsEmber reports whether name is one of the names of Ember's yearly CSV.
func IsEmber(name string) bool { return name == EmberGlobal || name == EmberYearly }

// label is how messages name a source: by its name, but Ember's CSV, whose
// layout (and so its name) is told by its header once read, as such.
func label(name string) string {
	if IsEmber(name) {
		return "Ember's yearly CSV"
	}
	return name
}

// LeaderboardTask is the name of a leaderboard task's file,
// leaderboard/tasks/ID.json: format.LeaderboardTask, the name a snapshot
// archives it under (the tasks a build reads are format.Tasks).
func LeaderboardTask(task string) string { return format.LeaderboardTask(task) }

// Default upstream locations. Users have the internet; tests override them.
const (
	DefaultLeaderboardBase = "https://raw.githubusercontent.com/ml-energy/leaderboard/master/public/data/"
	DefaultGitHubAPI       = "https://api.github.com"
	// DefaultEmberURL is Ember's yearly CSV in its July 2026 layout
	// (EmberGlobal).
	DefaultEmberURL = "https://files.ember-energy.org/public-downloads/generation/outputs/release_generation_yearly_global.csv"
	// LongEmberURL is where Ember published its yearly CSV in the long
	// layout (EmberYearly): --ember-url pins it.
	LongEmberURL = "https://files.ember-energy.org/public-downloads/yearly_full_release_long_format.csv"
	// LeaderboardAtCommit is the leaderboard's public/data/ at a commit,
	// CommitPlaceholder standing for it (Origins.Commit): where verify
	// --upstream fetches the leaderboard's files a snapshot archives.
	LeaderboardAtCommit = "https://raw.githubusercontent.com/ml-energy/leaderboard/" + CommitPlaceholder + "/public/data/"
	// CommitPlaceholder, in an Origins' LeaderboardBase, stands for its
	// Commit.
	CommitPlaceholder = "{commit}"
	// commitsQuery asks GitHub for the newest commit to the task files.
	commitsQuery = "/repos/ml-energy/leaderboard/commits?path=public/data/tasks&per_page=1"
)

// Origins maps source names to the URLs they come from.
type Origins struct {
	LeaderboardBase string // ends in "/"; index.json and tasks/ are below it
	GitHubAPI       string // no trailing "/"
	EmberURL        string
	// Commit, when set, is the leaderboard's commit the files are asked
	// at: CommitPlaceholder in LeaderboardBase stands for it, and GitHub's
	// list of commits is asked from it ("&sha=COMMIT": its first entry is
	// the newest commit to the task files at or before it). Empty: the
	// files as they are now, and a LeaderboardBase without the placeholder.
	Commit string
}

// DefaultOrigins are the real upstream URLs.
func DefaultOrigins() Origins {
	return Origins{LeaderboardBase: DefaultLeaderboardBase, GitHubAPI: DefaultGitHubAPI, EmberURL: DefaultEmberURL}
}

// URL returns the URL that the named source file is fetched from.
func (o Origins) URL(name string) (string, error) {
	switch {
	case name == LeaderboardCommits && o.Commit != "":
		return strings.TrimSuffix(o.GitHubAPI, "/") + commitsQuery + "&sha=" + url.QueryEscape(o.Commit), nil
	case name == LeaderboardCommits:
		return strings.TrimSuffix(o.GitHubAPI, "/") + commitsQuery, nil
	case IsEmber(name):
		return o.EmberURL, nil
	case strings.HasPrefix(name, "leaderboard/") && o.Commit == "" && strings.Contains(o.LeaderboardBase, CommitPlaceholder):
		return "", fmt.Errorf("fetch: the leaderboard's base URL %s stands for a commit (%s), and none is given", o.LeaderboardBase, CommitPlaceholder)
	case strings.HasPrefix(name, "leaderboard/"):
		base := strings.ReplaceAll(o.LeaderboardBase, CommitPlaceholder, url.PathEscape(o.Commit))
		if !strings.HasSuffix(base, "/") {
			base += "/"
		}
		return base + strings.TrimPrefix(name, "leaderboard/"), nil
	}
	return "", fmt.Errorf("fetch: no upstream for source %q", name)
}

// EmberOrigin is the URL recorded for a local copy of Ember's yearly CSV
// (an offline build) whose header told the layout archived as name: url,
// the URL the build was given, unless that is the default URL of the other
// layout; then name's own default. A file in the long layout read with the
// default --ember-url does not claim to come from the July 2026 file.
func EmberOrigin(url, name string) string {
	switch {
	case name == EmberYearly && url == DefaultEmberURL:
		return LongEmberURL
	case name == EmberGlobal && url == LongEmberURL:
		return DefaultEmberURL
	}
	return url
}

// Body is an open upstream file. The caller closes it.
type Body struct {
	io.ReadCloser
	// URL is where the bytes come from: the URL fetched, or for a Dir source
	// the upstream URL the archived file was fetched from.
	URL string
	// FinalURL is the URL that answered, after any redirects (URL when
	// there were none); empty for a local file, which no server answered.
	FinalURL string
	// Local is the local file a Dir source read; empty for a download.
	// Messages about the bytes name it, not URL.
	Local string
	// Retrieved is when the bytes were fetched (UTC); zero when the source
	// does not know (a Dir source), and the caller supplies it.
	Retrieved time.Time
	// Size is the body's length in bytes when the source knows it before
	// the body is read (a Dir file's size; an HTTP answer's Content-Length,
	// unless the body is gzip-encoded), else 0. ReadAll makes its buffer
	// that large at once instead of growing it. It is a hint, not a check:
	// a body is read to its end, whatever its length (HTTP bodies are
	// checked against their Content-Length and the cap as they are read).
	Size int64
}

// Where names where the bytes were read: the local file, else the URL.
func (b *Body) Where() string { return where(b.Local, b.URL) }

func where(local, url string) string {
	if local != "" {
		return local
	}
	return url
}

// Source hands out upstream files by name.
type Source interface {
	Open(ctx context.Context, name string) (*Body, error)
}

// Dir is a Source that reads a folder laid out like a snapshot's sources/:
// Root/leaderboard/index.json, Root/leaderboard/tasks/TASK.json, Root/ember/...
// The URL it reports for each file is the one Origins gives for its name;
// Body.Local is the file read, which errors name.
//
// Ember's yearly CSV is read under either of its names: Ember when set,
// else Root's file of that name, or failing that of the other (a snapshot
// archives one).
//
// The size caps of downloads hold here too: a file larger than its cap
// (MaxBytes, or MaxBytesCSV for Ember's CSV) fails with ErrTooLarge, at
// Open when its size says so, else as it is read. Anything but a regular
// file (a FIFO, a device) is refused without being opened for reading.
type Dir struct {
	Root    string
	Origins Origins
	// Leaderboard, when set, is read in place of Root/leaderboard (a folder
	// holding index.json, commits.json and tasks/, as upstream lays them out).
	Leaderboard string
	// Ember, when set, is the file read in place of Root/ember/'s CSV.
	Ember string
	// MaxBytes and MaxBytesCSV are the caps, as HTTPOptions' are. Zero:
	// DefaultMaxBytes and DefaultMaxBytesCSV.
	MaxBytes, MaxBytesCSV int64
}

// Open implements Source.
func (d Dir) Open(ctx context.Context, name string) (*Body, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if path.IsAbs(name) || strings.Contains(name, "..") || path.Clean(name) != name {
		return nil, fmt.Errorf("fetch: bad source name %q", name)
	}
	url, err := d.Origins.URL(name)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(d.Root, filepath.FromSlash(name))
	if rest, ok := strings.CutPrefix(name, "leaderboard/"); ok && d.Leaderboard != "" {
		file = filepath.Join(d.Leaderboard, filepath.FromSlash(rest))
	}
	if IsEmber(name) {
		file = d.emberFile(name)
	}
	f, err := regfile.Open(file)
	if err != nil {
		return nil, fmt.Errorf("fetch: reading %s: %w", label(name), err)
	}
	limit := cmp.Or(d.MaxBytes, DefaultMaxBytes)
	if IsEmber(name) {
		limit = cmp.Or(d.MaxBytesCSV, DefaultMaxBytesCSV)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("fetch: reading %s: %w", file, err)
	}
	if fi.Size() > limit {
		f.Close()
		return nil, fmt.Errorf("fetch: reading %s: %s: %w", label(name), file, capError{cap: limit, size: fi.Size()})
	}
	return &Body{ReadCloser: &cappedFile{f: f, path: file, limit: limit}, URL: url, Local: file, Size: fi.Size()}, nil
}

// emberFile is the file Open reads for Ember's CSV asked for as name.
func (d Dir) emberFile(name string) string {
	if d.Ember != "" {
		return d.Ember
	}
	file := filepath.Join(d.Root, filepath.FromSlash(name))
	other := EmberYearly
	if name == EmberYearly {
		other = EmberGlobal
	}
	other = filepath.Join(d.Root, filepath.FromSlash(other))
	if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Lstat(other); err == nil {
			return other
		}
	}
	return file
}

// cappedFile reads a local file up to its cap: one that grows past it
// while it is read fails with ErrTooLarge, naming the file.
type cappedFile struct {
	f     *os.File
	path  string
	limit int64
	n     int64
}

func (c *cappedFile) Read(p []byte) (int, error) {
	if room := c.limit - c.n + 1; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := c.f.Read(p)
	c.n += int64(n)
	if c.n > c.limit {
		return n - int(c.n-c.limit), fmt.Errorf("%s: %w", c.path, capError{cap: c.limit, size: -1})
	}
	return n, err
}

func (c *cappedFile) Close() error { return c.f.Close() }
