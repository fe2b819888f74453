package bucket

import "context"

// The compare-and-swap of the pointers, for the tests of every driver.
type Version = version

var ErrLost = errLost

func (b *Bucket) ReadPointer(ctx context.Context, key string) ([]byte, Version, error) {
	return b.readVersioned(ctx, key, maxPointerBytes)
}

func (b *Bucket) SwapPointer(ctx context.Context, key string, data []byte, v Version) error {
	return b.swap(ctx, key, data, v)
}

var RedactURLs = redactURLs
