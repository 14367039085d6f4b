package remotecache

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestMeasuresWrittenByCIAreReadBack(t *testing.T) {
	dav, url := newDAV(t)
	ctx := context.Background()
	pub, priv := keypair(t)
	payload := []byte(`{"census": {"runner": "go", "tests": [{"id": "TestAdd", "outcome": "pass"}]}}`)
	if err := writer(t, url, priv).PutMeasures(ctx, key, payload); err != nil {
		t.Fatal(err)
	}
	if _, ok := dav.files["/cache/ac/"+key]; !ok {
		t.Fatalf("nothing stored: %v", dav.files)
	}
	got, ok, err := reader(t, url, pub).GetMeasures(ctx, key)
	if err != nil || !ok {
		t.Fatalf("GetMeasures = %v, %v", ok, err)
	}
	var want bytes.Buffer
	_ = json.Compact(&want, payload)
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("payload %s, want %s", got, want.Bytes())
	}
}

func TestReaderNeverWritesMeasures(t *testing.T) {
	dav, url := newDAV(t)
	pub, _ := keypair(t)
	if err := reader(t, url, pub).PutMeasures(context.Background(), key, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if dav.requests.Load() != 0 {
		t.Errorf("a reader made %d requests", dav.requests.Load())
	}
}

// What the server holds is anybody's: measures changed after signing, signed by a key nobody
// trusts, moved to another key, or a pass entry, are all misses.
func TestForgedMeasuresAreIgnored(t *testing.T) {
	ctx := context.Background()
	pub, priv := keypair(t)
	_, other := keypair(t)
	otherKey := strings.Repeat("f", 64)
	cases := map[string]func(dav *davServer, url string){
		"payload changed": func(dav *davServer, url string) {
			_ = writer(t, url, priv).PutMeasures(ctx, key, []byte(`{"census":{"tests":[{"id":"TestAdd","outcome":"pass"}]}}`))
			dav.files["/cache/ac/"+key] = bytes.Replace(dav.files["/cache/ac/"+key], []byte("TestAdd"), []byte("TestNil"), 1)
		},
		"untrusted signer": func(dav *davServer, url string) {
			_ = writer(t, url, other).PutMeasures(ctx, key, []byte(`{}`))
		},
		"another key's": func(dav *davServer, url string) {
			_ = writer(t, url, priv).PutMeasures(ctx, otherKey, []byte(`{}`))
			dav.files["/cache/ac/"+key] = dav.files["/cache/ac/"+otherKey]
		},
		"a pass entry": func(dav *davServer, url string) {
			_ = writer(t, url, priv).Put(ctx, key, Entry{Gate: "test", Run: "r", At: time.Now()})
		},
		"too long": func(dav *davServer, url string) {
			dav.files["/cache/ac/"+key] = bytes.Repeat([]byte(" "), MaxMeasuresBytes+128<<10)
		},
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			dav, url := newDAV(t)
			plant(dav, url)
			r := reader(t, url, pub)
			if got, ok, err := r.GetMeasures(ctx, key); ok || err != nil {
				t.Fatalf("believed %s (%v)", got, err)
			}
			if r.Ignored().Unverified != 1 {
				t.Errorf("ignored = %+v, want one unverified", r.Ignored())
			}
		})
	}
}
