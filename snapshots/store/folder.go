package store

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/leadgreen/greentokens/internal/regfile"
)

// Store holds releases by date, each read through an fs.FS. Folder is the
// store of a folder of dated snapshot folders; every reader of a store
// (the catalog, the build's removal guard) reads it through this
// interface, so that another kind of store (a bucket whose releases.json
// lists its releases) is read by the same code.
type Store interface {
	// Entries lists the store's dated entries, by ascending date.
	Entries(ctx context.Context) ([]Entry, error)
	// FS is the files of the release of date, to Open or Load.
	FS(date string) fs.FS
	// Name names the release of date in messages (OUT/DATE).
	Name(date string) string
}

// Entry is one dated entry of a store: a release, or, with Err set, what
// stands under a release's name and cannot be read as one (in a folder, a
// symbolic link or a file where a dated folder should be).
type Entry struct {
	Date string
	Err  error
	// ManifestSHA256 is the sha256 of the release's manifest.json when
	// the store's own index lists it (a bucket's releases.json), so that
	// a reader tells a release it has read already without reading it
	// again; FS(Date) holds the manifest to it. Empty for a folder, whose
	// manifest is the only record of its release.
	ManifestSHA256 string
}

// Folder is the store of the folder OUT: each release is a dated folder,
// OUT/DATE/, read through regfile.DirFS. Only entries named YYYY-MM-DD
// count; dot-folders (staging, the lock) and anything else are ignored.
type Folder string

// Entries lists OUT's dated entries. One that is a symbolic link (to a
// folder or anything else) or not a folder at all is listed with the
// reason it is not read.
func (f Folder) Entries(ctx context.Context) ([]Entry, error) {
	des, err := os.ReadDir(string(f))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, de := range des {
		date := de.Name()
		if !isDate(date) {
			continue
		}
		e := Entry{Date: date}
		switch m := de.Type(); {
		case m&fs.ModeSymlink != 0:
			e.Err = fmt.Errorf("the dated folder is a symbolic link; a snapshot folder must be a real folder")
		case m.IsRegular():
			e.Err = fmt.Errorf("%s is a file, not a snapshot folder", date)
		case !m.IsDir():
			e.Err = &regfile.NotRegularError{Path: date, Mode: m}
		}
		out = append(out, e)
	}
	return out, nil // os.ReadDir sorts by name: by date
}

// FS is the folder OUT/DATE through regfile.DirFS.
func (f Folder) FS(date string) fs.FS { return regfile.DirFS(f.Name(date)) }

// Name is the folder OUT/DATE.
func (f Folder) Name(date string) string { return filepath.Join(string(f), date) }

// isDate reports whether name is a release's name: a date, YYYY-MM-DD.
func isDate(name string) bool {
	if len(name) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, name)
	return err == nil
}

// LatestBefore returns the date of the latest release of s earlier than
// date, or "" when there is none. Entries that cannot be read as a release
// do not count.
func LatestBefore(ctx context.Context, s Store, date string) (string, error) {
	entries, err := s.Entries(ctx)
	if err != nil {
		return "", err
	}
	latest := ""
	for _, e := range slices.Backward(entries) {
		// Dates in YYYY-MM-DD order as strings.
		if e.Err == nil && e.Date < date {
			latest = e.Date
			break
		}
	}
	return latest, nil
}
