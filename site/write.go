package site

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/leadgreen/greentokens/catalog"
)

// WriteDir writes every file of the site into the folder out, whole or not
// at all: the files are written into a hidden sibling folder, one model
// page at a time, and it takes out's place only when every file is there.
// out may be missing, an empty folder, or a site an earlier WriteDir wrote
// (it is replaced); any other existing out is refused with an error
// wrapping catalog.ErrConflict (exit 6), and left as it is.
func (s *Site) WriteDir(out string) (err error) {
	out = filepath.Clean(out)
	kind, err := outKind(out)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("%w: %v", catalog.ErrConflict, err)
	}
	stage, err := os.MkdirTemp(filepath.Dir(out), ".site-staging-")
	if err != nil {
		return fmt.Errorf("%w: %v", catalog.ErrConflict, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(stage)
		}
	}()
	if err := os.Chmod(stage, 0o755); err != nil {
		return err
	}
	for _, p := range s.paths {
		b, err := s.Page(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(stage, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return err
		}
	}
	switch kind {
	case outMissing:
		return os.Rename(stage, out)
	case outEmpty:
		if err := os.Remove(out); err != nil {
			return err
		}
		return os.Rename(stage, out)
	}
	// An earlier site: move it aside, put the new one in, remove the old.
	old, err := os.MkdirTemp(filepath.Dir(out), ".site-old-")
	if err != nil {
		return err
	}
	os.Remove(old)
	if err := os.Rename(out, old); err != nil {
		return err
	}
	if err := os.Rename(stage, out); err != nil {
		os.Rename(old, out)
		return err
	}
	return os.RemoveAll(old)
}

type outState int

const (
	outMissing outState = iota
	outEmpty
	outSite
)

// siteMarks are files every site has; a folder holding them was written by
// WriteDir.
var siteMarks = []string{"index.html", "site.css", "site.js", "data/manifest.json"}

func outKind(out string) (outState, error) {
	fi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return outMissing, nil
	}
	if err != nil {
		return 0, fmt.Errorf("%w: %v", catalog.ErrConflict, err)
	}
	if !fi.IsDir() {
		return 0, fmt.Errorf("%w: %s is not a folder", catalog.ErrConflict, out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", catalog.ErrConflict, err)
	}
	if len(entries) == 0 {
		return outEmpty, nil
	}
	for _, m := range siteMarks {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(m))); err != nil {
			return 0, fmt.Errorf("%w: %s holds other files than a site (no %s): choose a new or empty folder", catalog.ErrConflict, out, m)
		}
	}
	return outSite, nil
}
