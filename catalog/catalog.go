// Package catalog holds the dated snapshots that the HTTP API (api/) and the
// MCP server (mcpserver/) answer from, and is the one place that prices and
// lists: the command line's carbon and list read their snapshot through it
// too (FromLoaded), so every surface answers with the same objects
// (Carbon, ModelList, GridList; schemas/carbon.schema.json,
// list-models.schema.json, list-grids.schema.json). It loads every snapshot folder under a
// directory once, each only after snapshots.Load has checked every file
// against its manifest (sizes and sha256), keeps the published files'
// bytes and the models derived from the archived upstream rows in memory,
// and looks again for new dated folders when asked (Rescan, Run). A served
// folder whose manifest.json changed (replaced in place by build --replace)
// is loaded and checked again on a rescan. A folder that fails its checks
// is not served and is logged with the reason; the others stay served.
// "latest" names the greatest date that passed.
//
// Prices come from the archived upstream rows, unrounded, with the index's
// own rules (FindModel, grid.Lookup, grid.KgPerBillionTokens, the index
// row rule of transform.Model.BestWith): see Price.
package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"
)

// Latest is the name that stands for the greatest date served.
const Latest = "latest"

// Catalog is the set of snapshots served from one directory. It is safe for
// concurrent use; a *Snapshot never changes (a reload serves a new one).
type Catalog struct {
	dir string
	log *slog.Logger

	mu     sync.RWMutex
	snaps  map[string]*Snapshot
	dates  []string         // served dates, ascending
	served map[string]stamp // the manifest each served snapshot was loaded from
	failed map[string]stamp
}

// stamp identifies a version of a snapshot folder by its manifest.json:
// a served folder is loaded again, and a failed one tried again, only once
// its manifest changes.
type stamp struct {
	size int64
	mod  time.Time
	sum  string // sha256 of the bytes, for a replacement within the mtime's granularity
}

// Open loads every dated snapshot folder (YYYY-MM-DD) under dir. A folder
// that fails its checks is logged and left out; Open fails only when dir
// cannot be read. A catalog with no snapshot is not an error: Ready says
// whether one is served.
func Open(dir string, log *slog.Logger) (*Catalog, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &Catalog{dir: dir, log: log, snaps: map[string]*Snapshot{},
		served: map[string]stamp{}, failed: map[string]stamp{}}
	if _, err := c.Rescan(); err != nil {
		return nil, err
	}
	return c, nil
}

// Rescan loads the dated folders that appeared since the last scan (and
// those that failed, once their manifest.json changed), and returns the
// dates it added or reloaded. A served snapshot is read again only when
// its manifest.json changed (size, modification time or sha256): it is
// checked against the new manifest like a new one, and one that fails
// stops being served and is logged.
func (c *Catalog) Rescan() ([]string, error) {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return nil, fmt.Errorf("catalog: reading %s: %w", c.dir, err)
	}
	var added []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !isDate(name) {
			continue
		}
		path := filepath.Join(c.dir, name)
		st := manifestStamp(path)
		c.mu.RLock()
		loaded, served := c.served[name]
		old, failedBefore := c.failed[name]
		c.mu.RUnlock()
		if served && st == loaded || failedBefore && st == old {
			continue
		}
		s, err := load(path, name)
		c.mu.Lock()
		if err != nil {
			c.failed[name] = st
			c.drop(name)
			c.mu.Unlock()
			c.log.Error("snapshot not served", "dir", path, "replaced", served, "err", err)
			continue
		}
		delete(c.failed, name)
		if !served {
			c.dates = append(c.dates, name)
			sort.Strings(c.dates)
		}
		c.snaps[name], c.served[name] = s, st
		c.mu.Unlock()
		added = append(added, name)
		msg := "snapshot served"
		if served {
			msg = "snapshot reloaded"
		}
		c.log.Info(msg, "date", name, "models", len(s.Models), "grid_year", s.GridYear)
	}
	return added, nil
}

// drop stops serving date, if it is served; c.mu is held.
func (c *Catalog) drop(date string) {
	if _, ok := c.snaps[date]; !ok {
		return
	}
	delete(c.snaps, date)
	delete(c.served, date)
	c.dates = slices.DeleteFunc(c.dates, func(d string) bool { return d == date })
}

// Run rescans every interval until ctx is done. A failed scan is logged.
func (c *Catalog) Run(ctx context.Context, interval time.Duration) {
	if interval <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := c.Rescan(); err != nil {
				c.log.Error("rescan failed", "err", err)
			}
		}
	}
}

// Ready reports whether at least one snapshot is served.
func (c *Catalog) Ready() bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.dates) > 0
}

// Dates returns the served dates, ascending.
func (c *Catalog) Dates() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return append([]string(nil), c.dates...)
}

// Snapshots returns the served snapshots, by ascending date.
func (c *Catalog) Snapshots() []*Snapshot {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]*Snapshot, len(c.dates))
	for i, d := range c.dates {
		out[i] = c.snaps[d]
	}
	return out
}

// Snapshot returns the snapshot of date, or the latest for "latest" or "".
// An unknown date is a NotFound error naming the nearest dates.
func (c *Catalog) Snapshot(date string) (*Snapshot, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if date == "" || date == Latest {
		if len(c.dates) == 0 {
			return nil, &Error{Kind: NotFound, What: "snapshot", Query: Latest, Detail: "no snapshot is served yet"}
		}
		return c.snaps[c.dates[len(c.dates)-1]], nil
	}
	if s, ok := c.snaps[date]; ok {
		return s, nil
	}
	return nil, notFound("snapshot", date, nearest(date, c.dates))
}

func isDate(name string) bool {
	if len(name) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, name)
	return err == nil
}

func manifestStamp(dir string) stamp {
	path := filepath.Join(dir, ManifestPath)
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return stamp{size: fi.Size(), mod: fi.ModTime()}
	}
	return stamp{fi.Size(), fi.ModTime(), sum(b)}
}
