package bucket

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/leadgreen/greentokens/internal/failure"
)

// Schemes returns the URL schemes of the buckets Open opens, each through
// gocloud.dev/blob's own driver and URL opener: a local folder
// (file:///path, fileblob), any S3-compatible store
// (s3://bucket?endpoint=...&use_path_style=true&region=..., s3blob),
// Google Cloud Storage (gs://bucket, gcsblob), Azure Blob Storage
// (azblob://container, azureblob), and one process's memory (mem://,
// memblob; empty when opened).
func Schemes() []string { return slices.Clone(schemes) }

var schemes = []string{"file", "s3", "gs", "azblob", "mem"}

// Latest is the release name of URL/latest: the release latest.json names.
const Latest = "latest"

// secretParams are the query parameters a bucket URL is refused for, by
// their lower-case names with "-" read as "_": access keys, secrets,
// session tokens, signatures and credentials. A URL is copied into logs,
// shell histories and CI settings; credentials come from each cloud's own
// chain instead (environment, profile, workload identity).
var secretParams = []string{
	"access_key", "access_key_id", "accesskey", "accesskeyid", "aws_access_key_id", "awsaccesskeyid",
	"secret", "secret_key", "secretkey", "secret_access_key", "aws_secret_access_key",
	"session_token", "aws_session_token", "security_token", "x_amz_security_token", "token", "sas", "sas_token",
	"sig", "signature", "x_amz_signature", "credential", "credentials", "x_amz_credential",
	"password", "passwd", "account_key", "accountkey", "private_key",
}

// secretWords are the words that make any other query parameter a secret
// (a name ending in "_path" names a file, as fileblob's secret_key_path and
// gcsblob's private_key_path do, and carries no secret itself).
var secretWords = []string{"secret", "token", "password", "passwd", "signature", "credential"}

// CheckURL checks a bucket URL as Open does, without opening it: a usage
// error (failure.ErrUsage) for one Open refuses.
func CheckURL(raw string) error {
	_, err := checkURL(raw)
	return err
}

// checkURL parses a bucket URL and refuses, as a usage error
// (failure.ErrUsage), one that Open does not take: another scheme, a path
// on a cloud bucket's URL (gocloud.dev reads the bucket from the host and
// would ignore it; a folder in a bucket is ?prefix=DIR/), the key
// parameter (a bucket of one object), or a secret (secretParams,
// secretWords, user information, or a parameter's value that is a URL with
// user information). The messages never print a parameter's value.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: the bucket URL does not parse", failure.ErrUsage)
	}
	if !slices.Contains(schemes, u.Scheme) {
		return nil, fmt.Errorf("%w: the bucket URL's scheme %q is not one of %s", failure.ErrUsage, u.Scheme, strings.Join(schemes, ", "))
	}
	if u.User != nil {
		return nil, fmt.Errorf("%w: the bucket URL carries user information (%s://USER@...): credentials come from the environment, a profile or the workload's identity, never from the URL", failure.ErrUsage, u.Scheme)
	}
	for name, values := range u.Query() {
		norm := strings.ReplaceAll(strings.ToLower(name), "-", "_")
		if isSecret(norm) {
			return nil, fmt.Errorf("%w: the bucket URL carries a secret in its query parameter %q: credentials come from the environment, a profile or the workload's identity, never from the URL", failure.ErrUsage, name)
		}
		for _, v := range values {
			if pu, err := url.Parse(v); err == nil && pu.User != nil {
				return nil, fmt.Errorf("%w: the bucket URL's query parameter %q is a URL with user information: credentials come from the environment, a profile or the workload's identity, never from the URL", failure.ErrUsage, name)
			}
		}
		if norm == "key" {
			return nil, fmt.Errorf("%w: the bucket URL's query parameter \"key\" makes a bucket of one object; a bucket of releases is a bucket, or a folder in one (?prefix=DIR/)", failure.ErrUsage)
		}
	}
	switch u.Scheme {
	case "s3", "gs", "azblob":
		if u.Host == "" {
			return nil, fmt.Errorf("%w: the bucket URL %s names no bucket (%s://BUCKET)", failure.ErrUsage, display(u), u.Scheme)
		}
		if u.Path != "" && u.Path != "/" {
			return nil, fmt.Errorf("%w: the bucket URL %s has a path: a %s URL names the bucket alone; a folder in it is ?prefix=DIR/", failure.ErrUsage, display(u), u.Scheme)
		}
	case "file":
		if u.Path == "" || u.Path == "/" {
			return nil, fmt.Errorf("%w: the bucket URL %s names no folder (file:///PATH)", failure.ErrUsage, display(u))
		}
	}
	return u, nil
}

func isSecret(name string) bool {
	if slices.Contains(secretParams, name) {
		return true
	}
	if strings.HasSuffix(name, "_path") {
		return false
	}
	for _, w := range secretWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// queryParam is a query parameter in a URL in a message, or a NAME=VALUE
// after a space: its name, then its value.
var queryParam = regexp.MustCompile(`((?:^|[?&;\s])([A-Za-z0-9_.-]+)=)([^&;#\s"'<>]*)`)

// redactURLs replaces the value of every query parameter in msg whose
// name is a secret's with "REDACTED".
func redactURLs(msg string) string {
	return queryParam.ReplaceAllStringFunc(msg, func(m string) string {
		sub := queryParam.FindStringSubmatch(m)
		if !isSecret(strings.ReplaceAll(strings.ToLower(sub[2]), "-", "_")) {
			return m
		}
		return sub[1] + "REDACTED"
	})
}

// display is a bucket URL as messages name it: without its query but for
// the prefix (the query holds endpoints and options, never a secret once
// checkURL has passed it, but makes every message long).
func display(u *url.URL) string {
	d := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	if p := u.Query().Get("prefix"); p != "" {
		d.RawQuery = url.Values{"prefix": {p}}.Encode()
	}
	return d.String()
}

// SplitRelease splits a release's URL, the bucket's URL with one more path
// element, into the bucket's URL and that element: a date (YYYY-MM-DD) or
// Latest. "s3://b/2026-09-27?endpoint=..." gives "s3://b?endpoint=..." and
// "2026-09-27"; "file:///srv/releases/latest" gives "file:///srv/releases"
// and "latest". A URL whose last path element is neither is a usage error.
func SplitRelease(raw string) (bucketURL, release string, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", "", fmt.Errorf("%w: the release URL does not parse", failure.ErrUsage)
	}
	dir, last := "", strings.TrimSuffix(u.Path, "/")
	if i := strings.LastIndex(last, "/"); i >= 0 {
		dir, last = last[:i], last[i+1:]
	}
	if last != Latest && !isDate(last) {
		return "", "", fmt.Errorf("%w: the release URL %s does not end in a date (URL/YYYY-MM-DD) or /%s", failure.ErrUsage, display(u), Latest)
	}
	b := *u
	b.Path, b.RawPath = dir, ""
	return b.String(), last, nil
}

// ReleaseURL is the URL of the release named release (a date, or Latest)
// in the bucket at bucketURL, as SplitRelease splits it: the bucket's path
// with one more element, its query kept. "s3://b?endpoint=..." and
// "2026-09-27" give "s3://b/2026-09-27?endpoint=...".
func ReleaseURL(bucketURL, release string) string {
	u, err := url.Parse(bucketURL)
	if err != nil {
		return bucketURL + "/" + release
	}
	u.Path, u.RawPath = strings.TrimSuffix(u.Path, "/")+"/"+release, ""
	return u.String()
}

// isDate reports whether s is a release's date, YYYY-MM-DD.
func isDate(s string) bool {
	if len(s) != len(time.DateOnly) {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}
