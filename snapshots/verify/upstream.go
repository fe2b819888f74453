package verify

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"regexp"
	"strings"

	"github.com/leadgreen/greentokens/fetch"
	"github.com/leadgreen/greentokens/format"
	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/leaderboard"
	"github.com/leadgreen/greentokens/snapshots/store"
	"github.com/leadgreen/greentokens/validate"
)

// UpstreamOptions say where Upstream fetches a snapshot's sources again,
// and within which bounds.
type UpstreamOptions struct {
	// HTTP are fetch's options: its retries, size caps, timeouts and
	// deadlines, as a build's. Of its Origins, LeaderboardBase is the
	// leaderboard's public/data/ at a commit, fetch.CommitPlaceholder
	// standing for the one the manifest records (zero:
	// fetch.LeaderboardAtCommit); GitHubAPI is GitHub's API (zero:
	// fetch.DefaultGitHubAPI); EmberURL, when set, replaces the URL the
	// manifest records for Ember's CSV. Its Commit is set from the manifest.
	HTTP fetch.HTTPOptions
}

// UpstreamFile is one archived source fetched again from upstream.
type UpstreamFile struct {
	// Name and Path are the source's, as the manifest lists it.
	Name string `json:"name"`
	Path string `json:"path"`
	// URL is the URL fetched.
	URL string `json:"url"`
	// Commit is the leaderboard's commit it was fetched at; empty for
	// Ember's CSV, whose address names no version.
	Commit string `json:"commit,omitempty"`
	// Stored is the sha256 the manifest lists (verify holds the archived
	// file to it), Fetched that of the bytes fetched; empty when nothing
	// was fetched.
	Stored  string `json:"stored_sha256"`
	Fetched string `json:"fetched_sha256,omitempty"`
	// Same is true when upstream gives what the snapshot archives.
	Same bool `json:"same"`
	// Note says what a difference means, or why bytes that differ are the
	// same source (GitHub's answer naming the same commit).
	Note string `json:"note,omitempty"`
	// Err is why the file could not be fetched.
	Err string `json:"error,omitempty"`
}

// commitShape is a full SHA-1 commit id, as the manifest's evidence records
// the leaderboard's.
var commitShape = regexp.MustCompile(`^[0-9a-f]{40}$`)

// Upstream fetches each source the snapshot fsys archives again, through
// fetch's HTTP source (bounded: its retries, size caps and deadlines), and
// compares the sha256 of what upstream gives with the one the manifest
// lists:
//
//   - the leaderboard's files (index.json, the task files) at the commit
//     the manifest's evidence records (last_commit_sha, the newest commit
//     to the task files when they were fetched): an address that never
//     changes, so a difference means the archive is not upstream's;
//   - GitHub's list of commits asked from that commit: an API answer, not
//     a file, whose bytes GitHub may write otherwise years later; bytes
//     that differ but name the same newest commit and date, which is what
//     the build reads from it, are the same source, said so in the note;
//   - Ember's CSV at the URL the manifest records: an address that each
//     Ember release overwrites and that names no version, so a difference
//     is reported as upstream having changed since retrieval (or the
//     archive altered): it can be told apart only by a copy of Ember's
//     file as it was.
//
// A redirect to the host of a source's recorded final_url is followed. The
// error is for a snapshot whose manifest cannot be read, or a cancelled ctx
// (failure.ErrInterrupted); a file that cannot be fetched is an
// UpstreamFile with Err. Report.CheckUpstream adds what it finds to
// Verify's report.
func Upstream(ctx context.Context, fsys fs.FS, opts UpstreamOptions) ([]UpstreamFile, error) {
	rel, err := store.Open(ctx, fsys, nameOf(fsys))
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: verify --upstream: %w", failure.ErrInterrupted, ctx.Err())
		}
		return nil, fmt.Errorf("%w: verify --upstream: %w", failure.ErrValidation, err)
	}
	m := rel.Manifest
	o := opts.HTTP.Origins
	if o.LeaderboardBase == "" {
		o.LeaderboardBase = fetch.LeaderboardAtCommit
	}
	if o.GitHubAPI == "" {
		o.GitHubAPI = fetch.DefaultGitHubAPI
	}
	o.Commit = m.Evidence.LastCommitSHA
	var out []UpstreamFile
	for _, e := range m.Sources {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: verify --upstream: %w", failure.ErrInterrupted, err)
		}
		f := UpstreamFile{Name: e.Name, Path: e.Path, Stored: e.SHA256}
		eo := o
		if fetch.IsEmber(e.Name) && eo.EmberURL == "" {
			eo.EmberURL = e.URL
		}
		if u, err := eo.URL(e.Name); err == nil {
			f.URL = u
		}
		switch {
		case strings.HasPrefix(e.Name, "leaderboard/") && !commitShape.MatchString(o.Commit):
			f.Err = fmt.Sprintf("the manifest records no leaderboard commit to fetch it at (evidence.last_commit_sha %q)", o.Commit)
		case strings.HasPrefix(e.Name, "leaderboard/"):
			f.Commit = o.Commit
			fallthrough
		default:
			hopts := opts.HTTP
			hopts.Origins = eo
			if fu, err := url.Parse(e.FinalURL); err == nil && e.FinalURL != "" {
				hopts.RedirectHosts = append(hopts.RedirectHosts[:len(hopts.RedirectHosts):len(hopts.RedirectHosts)], fu.Host)
			}
			f.compare(fetchAgain(ctx, fetch.NewHTTP(hopts), e.Name, &f), rel, e)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: verify --upstream: %w", failure.ErrInterrupted, ctx.Err())
		}
		out = append(out, f)
	}
	return out, nil
}

// fetchAgain fetches the source name, sets f's Fetched (or Err) and
// returns the bytes for a JSON file (nil for Ember's CSV, only hashed as
// it streams).
func fetchAgain(ctx context.Context, src *fetch.HTTP, name string, f *UpstreamFile) []byte {
	if !fetch.IsEmber(name) {
		file, err := fetch.ReadAll(ctx, src, name)
		if err != nil {
			f.Err = err.Error()
			return nil
		}
		sum := sha256.Sum256(file.Data)
		f.Fetched = hex.EncodeToString(sum[:])
		return file.Data
	}
	b, err := src.Open(ctx, name)
	if err != nil {
		f.Err = err.Error()
		return nil
	}
	defer b.Close()
	h := sha256.New()
	if _, err := io.Copy(h, b); err != nil {
		f.Err = err.Error()
		return nil
	}
	f.Fetched = hex.EncodeToString(h.Sum(nil))
	return nil
}

// compare sets f's Same and Note from what was fetched (data: a JSON
// file's bytes).
func (f *UpstreamFile) compare(data []byte, rel *store.Release, e format.SourceFile) {
	switch {
	case f.Err != "":
	case f.Fetched == f.Stored:
		f.Same = true
	case e.Name == fetch.LeaderboardCommits:
		f.Same, f.Note = sameCommit(rel, e, data)
	case f.Commit != "":
		f.Note = "upstream's file at that commit is not the one archived"
	default:
		f.Note = "upstream changed since retrieval, or the archive was altered: this address names no version (each Ember release replaces the file), so the archive can be held to it only until upstream changes"
	}
}

// sameCommit compares GitHub's list of commits as fetched with the archived
// one by what the build reads of it, the newest commit and its date.
func sameCommit(rel *store.Release, e format.SourceFile, fetched []byte) (bool, string) {
	now, err := leaderboard.ParseCommits(fetched)
	if err != nil {
		return false, "GitHub's answer cannot be read: " + err.Error()
	}
	archived, err := rel.ReadListed(e.Path)
	var was *leaderboard.Commit
	if err == nil {
		was, err = leaderboard.ParseCommits(archived)
	}
	if err != nil {
		return false, "the archived answer cannot be read: " + err.Error()
	}
	if now.SHA != was.SHA || !now.Date.Equal(was.Date) {
		return false, fmt.Sprintf("GitHub names the newest commit to the task files %s of %s, the archive %s of %s",
			now.SHA, now.Date.Format("2006-01-02T15:04:05Z"), was.SHA, was.Date.Format("2006-01-02T15:04:05Z"))
	}
	return true, "GitHub's answer differs in its bytes but names the same newest commit and date, which is what the build reads from it: an API answer, not a file"
}

// CheckUpstream runs Upstream on the snapshot fsys holds, which r reports
// on (Verify's report), and adds what it finds: r is OK only when every
// source is upstream's too. A manifest Upstream cannot read is a problem
// of the report; the error is for a cancelled ctx alone
// (failure.ErrInterrupted).
func (r *Report) CheckUpstream(ctx context.Context, fsys fs.FS, opts UpstreamOptions) error {
	files, err := Upstream(ctx, fsys, opts)
	switch {
	case errors.Is(err, failure.ErrInterrupted):
		return err
	case err != nil:
		r.Problems = append(r.Problems, validate.Problem{File: ".", Msg: fmt.Sprintf("not fetched again from upstream: %v", err)})
		r.OK = false
		files = []UpstreamFile{}
	}
	r.addUpstream(files)
	return nil
}

// addUpstream adds what Upstream found to the report.
func (r *Report) addUpstream(files []UpstreamFile) {
	r.Upstream = files
	for _, f := range files {
		r.OK = r.OK && f.Same
	}
}

// upstreamCounts counts the sources that differ from upstream and those
// that could not be fetched.
func (r *Report) upstreamCounts() (differ, unfetched int) {
	for _, f := range r.Upstream {
		switch {
		case f.Err != "":
			unfetched++
		case !f.Same:
			differ++
		}
	}
	return differ, unfetched
}

// upstreamErr is the kind of the report's failure: failure.ErrUpstream
// (exit 3) when nothing failed but the fetch of sources from upstream,
// else failure.ErrValidation.
func (r *Report) upstreamErr() error {
	differ, unfetched := r.upstreamCounts()
	if unfetched > 0 && differ == 0 && len(r.Problems) == 0 && len(r.Diffs) == 0 {
		return failure.ErrUpstream
	}
	return failure.ErrValidation
}
