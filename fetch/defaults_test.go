package fetch

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// NewHTTP fills each zero option with its documented default.
func TestNewHTTPDefaults(t *testing.T) {
	got := NewHTTP(HTTPOptions{}).opts
	if got.Logger == nil || got.Now == nil {
		t.Fatal("no default Logger or Now")
	}
	got.Logger, got.Now = nil, nil
	want := HTTPOptions{
		Origins:      DefaultOrigins(),
		RetryMax:     4,
		RetryWaitMin: time.Second,
		RetryWaitMax: 30 * time.Second,
		MaxTotalWait: 2 * time.Minute,
		Timeout:      time.Minute,
		Deadline:     10 * time.Minute,
		MaxBytes:     16 << 20,
		MaxBytesCSV:  256 << 20,
		UserAgent:    DefaultUserAgent,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}
