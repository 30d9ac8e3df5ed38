// Command s3fake serves an in-memory S3-compatible store (gofakes3) with
// one bucket, for trying and measuring the S3 blob backend without a real
// store: `go run ./bench/s3fake -addr 127.0.0.1:9000 -bucket fairbalance`,
// then FAIRBALANCE_S3_ENDPOINT=http://127.0.0.1:9000
// FAIRBALANCE_S3_BUCKET=fairbalance FAIRBALANCE_S3_PATH_STYLE=true (any
// access key). Everything is lost when it stops.
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	bucket := flag.String("bucket", "fairbalance", "bucket to create")
	flag.Parse()
	mem := s3mem.New()
	if err := mem.CreateBucket(*bucket); err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "http://%s\n", ln.Addr())
	log.Fatal(http.Serve(ln, gofakes3.New(mem, gofakes3.WithLogger(gofakes3.DiscardLog())).Server()))
}
