package bucket_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/leadgreen/greentokens/internal/failure"
	"github.com/leadgreen/greentokens/snapshots/bucket"
)

// TestCheckURL: the URLs Open takes, and those it refuses as a usage
// error, never printing a query parameter's value.
func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want string // "" when the URL is taken
	}{
		{"file:///srv/releases", ""},
		{"file:///srv/releases?create_dir=1&secret_key_path=/etc/key", ""},
		{"mem://", ""},
		{"s3://releases?endpoint=http://127.0.0.1:7070&use_path_style=true&region=us-east-1", ""},
		{"s3://releases?region=eu-west-1&prefix=greentokens/&kmskeyid=alias/x", ""},
		{"gs://releases?access_id=signer@example.iam.gserviceaccount.com&private_key_path=/k.pem", ""},
		{"azblob://releases?storage_account=acct&domain=blob.core.windows.net", ""},
		{"s3://AKIAEXAMPLE:SECRETVALUE@releases", "user information"},
		{"s3://releases?secret_access_key=SECRETVALUE", `"secret_access_key"`},
		{"s3://releases?AWS_SECRET_ACCESS_KEY=SECRETVALUE", `"AWS_SECRET_ACCESS_KEY"`},
		{"s3://releases?access_key_id=SECRETVALUE", `"access_key_id"`},
		{"s3://releases?X-Amz-Signature=SECRETVALUE&X-Amz-Credential=c", "X-Amz-"},
		{"s3://releases?session_token=SECRETVALUE", `"session_token"`},
		{"azblob://releases?sig=SECRETVALUE&sv=2020-01-01", `"sig"`},
		{"azblob://releases?sas_token=SECRETVALUE", `"sas_token"`},
		{"azblob://releases?account_key=SECRETVALUE", `"account_key"`},
		{"gs://releases?my_client_secret=SECRETVALUE", `"my_client_secret"`},
		{"gs://releases?refresh-token=SECRETVALUE", `"refresh-token"`},
		{"s3://releases?password=SECRETVALUE", `"password"`},
		{"s3://releases?endpoint=https://user:SECRETVALUE@minio.example", `"endpoint" is a URL with user information`},
		{"s3://releases?key=index.json", `"key"`},
		{"s3://releases/2026-09-27", "has a path"},
		{"s3://?region=us-east-1", "names no bucket"},
		{"file:///", "names no folder"},
		{"http://example.org/releases", "not one of file, s3, gs, azblob, mem"},
		{"releases", `scheme ""`},
	} {
		err := bucket.CheckURL(tc.url)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.url, err)
		case tc.want != "" && (!errors.Is(err, failure.ErrUsage) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v; want a usage error saying %s", tc.url, err, tc.want)
		case err != nil && strings.Contains(err.Error(), "SECRETVALUE"):
			t.Errorf("%s: the message prints the secret: %v", tc.url, err)
		}
	}
}

// TestSplitRelease: a release's URL is its bucket's with a date or
// "latest" after it, the query kept.
func TestSplitRelease(t *testing.T) {
	for _, tc := range []struct{ url, bucket, release string }{
		{"s3://releases/2026-09-27?endpoint=http://127.0.0.1:7070&region=us-east-1", "s3://releases?endpoint=http://127.0.0.1:7070&region=us-east-1", "2026-09-27"},
		{"s3://releases/latest", "s3://releases", "latest"},
		{"file:///srv/releases/2026-09-27", "file:///srv/releases", "2026-09-27"},
		{"file:///srv/releases/latest/", "file:///srv/releases", "latest"},
		{"gs://releases/latest?prefix=gt/", "gs://releases?prefix=gt/", "latest"},
	} {
		b, r, err := bucket.SplitRelease(tc.url)
		if err != nil || b != tc.bucket || r != tc.release {
			t.Errorf("SplitRelease(%s) = %q, %q, %v; want %q, %q", tc.url, b, r, err, tc.bucket, tc.release)
		}
		if back, want := bucket.ReleaseURL(tc.bucket, tc.release), strings.Replace(tc.url, tc.release+"/", tc.release, 1); back != want {
			t.Errorf("ReleaseURL(%s, %s) = %s; want %s", tc.bucket, tc.release, back, want)
		}
	}
	for _, bad := range []string{"s3://releases", "file:///srv/releases/2026-02-30", "s3://releases/newest"} {
		if _, _, err := bucket.SplitRelease(bad); !errors.Is(err, failure.ErrUsage) {
			t.Errorf("SplitRelease(%s): %v; want a usage error", bad, err)
		}
	}
}

// TestStoreErrorsRedacted: an error of the store that names a signed URL
// is printed without the signature.
func TestStoreErrorsRedacted(t *testing.T) {
	got := bucket.RedactURLs(`GET https://acct.blob.core.windows.net/c/k?se=2026-01-01&sig=SECRETVALUE&sp=r: 403; X-Amz-Signature=SECRETVALUE2&x=1`)
	want := `GET https://acct.blob.core.windows.net/c/k?se=2026-01-01&sig=REDACTED&sp=r: 403; X-Amz-Signature=REDACTED&x=1`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
