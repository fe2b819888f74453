package validate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"sort"
	"strings"
	"sync"
)

// checkFiles checks the manifest's listing against the folder: every file
// on disk but manifest.json is listed exactly once (sources/ files under
// sources, all others under outputs), every listed file exists with the
// listed size and SHA-256, and both lists are sorted by path.
func checkFiles(s *Snap) []Problem {
	m := s.Manifest
	mp := &problems{file: ManifestPath}
	var out []Problem
	listed := map[string]string{} // path → where it is listed
	sums := hashListed(s)

	entry := func(where, p string, size int64, sum string, wantSource bool) {
		if !cleanPath(p) {
			mp.add(where, "path", "%q is not a clean slash path relative to the snapshot folder", p)
			return
		}
		if prev, dup := listed[p]; dup {
			mp.add(where, "path", "%s is listed twice (also at %s)", p, prev)
			return
		}
		listed[p] = where
		isSource := strings.HasPrefix(p, sourcesPrefix)
		switch {
		case p == ManifestPath:
			mp.add(where, "path", "lists manifest.json, which never lists itself")
			return
		case wantSource && !isSource:
			mp.add(where, "path", "%s is a source but not under sources/", p)
		case !wantSource && isSource:
			mp.add(where, "path", "%s is under sources/ but listed as an output", p)
		}
		if !s.OnDisk(p) {
			out = append(out, Problem{File: p, Msg: fmt.Sprintf("is listed in manifest.json %s but missing from the snapshot folder", where)})
			return
		}
		h := sums[p]
		gotSize, gotSum, err := h.size, h.sum, h.err
		if err != nil {
			out = append(out, Problem{File: p, Msg: fmt.Sprintf("cannot be read: %v", err)})
			return
		}
		if gotSize != size {
			mp.add(where+" ("+p+")", "size", "is %d, but the file on disk has %d bytes", size, gotSize)
		}
		if gotSum != sum {
			mp.add(where+" ("+p+")", "sha256", "is %s, but the file on disk hashes to %s", sum, gotSum)
		}
	}

	for i, src := range m.Sources {
		where := fmt.Sprintf("sources[%d]", i)
		entry(where, src.Path, src.Size, src.SHA256, true)
		if want := sourcePath(src.Name); src.Path != want {
			mp.add(where, "name", "is %q, but its path is %q (want %q)", src.Name, src.Path, want)
		}
	}
	for i, f := range m.Outputs {
		entry(fmt.Sprintf("outputs[%d]", i), f.Path, f.Size, f.SHA256, false)
	}
	if !sort.SliceIsSorted(m.Sources, func(i, j int) bool { return m.Sources[i].Path < m.Sources[j].Path }) {
		mp.add("", "sources", "is not sorted by path")
	}
	if !sort.SliceIsSorted(m.Outputs, func(i, j int) bool { return m.Outputs[i].Path < m.Outputs[j].Path }) {
		mp.add("", "outputs", "is not sorted by path")
	}
	for _, p := range s.Files {
		if _, ok := listed[p]; !ok {
			kind := "outputs"
			if strings.HasPrefix(p, sourcesPrefix) {
				kind = "sources"
			}
			out = append(out, Problem{File: p, Msg: fmt.Sprintf("is in the snapshot folder but not listed in manifest.json %s", kind)})
		}
	}
	return append(mp.list, out...)
}

// hashed is a file's size and hex SHA-256 (and its CRC-32C, for a file
// Early saw), or why it could not be read.
type hashed struct {
	size int64
	sum  string
	err  error
	crc  uint32 // CRC-32C, when Early read or checked the file and it was read whole; else 0
}

// hashListed hashes every file on disk that the manifest lists, each once
// (Snap.hashOf), on a worker per CPU.
func hashListed(s *Snap) map[string]hashed {
	var paths []string
	seen := map[string]bool{}
	add := func(p string) {
		if cleanPath(p) && !seen[p] && s.OnDisk(p) {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	for _, src := range s.Manifest.Sources {
		add(src.Path)
	}
	for _, f := range s.Manifest.Outputs {
		add(f.Path)
	}
	out := make([]hashed, len(paths))
	eachIndex(len(paths), func(i int) {
		h := &out[i]
		*h = s.hashOf(paths[i])
	})
	sums := make(map[string]hashed, len(paths))
	for i, p := range paths {
		sums[p] = out[i]
	}
	return sums
}

// hashOf returns the size and hex SHA-256 of the file at slash path p on
// disk, read and hashed once per check of the snapshot however many checks
// ask (the manifest check, and the checks before they take what Early
// read or checked). For a file Early saw, the same read takes its CRC-32C,
// which tells whether the bytes on disk are those Early saw.
func (s *Snap) hashOf(p string) hashed {
	return s.hashes.get(p, func() (h hashed) {
		var crc hash.Hash32
		if s.sawEarly(p) {
			crc = crc32.New(castagnoli) // for earlyFor, checkedEarly, task
		}
		h.size, h.sum, h.err = hashFile(s, p, crc)
		if crc != nil && h.err == nil {
			h.crc = crc.Sum32()
		}
		return h
	})
}

// sawEarly reports whether Early read or checked the file at slash path p.
func (s *Snap) sawEarly(p string) bool {
	if f := s.early[p]; f != nil && f.err == nil {
		return true
	}
	if _, ok := s.earlyOutputs[p]; ok {
		return true
	}
	for _, et := range s.earlyTasks {
		if et.path == p {
			return true
		}
	}
	return false
}

// copyBuffers hold the buffers of hashFile.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// hashFile returns the size and hex SHA-256 of the file at slash path p,
// and writes its bytes to also when it is not nil.
func hashFile(s *Snap, p string, also io.Writer) (int64, string, error) {
	f, err := s.Open(p)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	var w io.Writer = h
	if also != nil {
		w = io.MultiWriter(h, also)
	}
	// A buffer of the pool: io.Copy from an *os.File would make one of
	// 32 KB per file (20,000 files at 10,000 models). The reader is
	// wrapped so that CopyBuffer uses it rather than the file's WriteTo,
	// and its reads fail once the checks are ended (a 50 MB index.json).
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	n, err := io.CopyBuffer(w, s.cancellable(f), *buf)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}
