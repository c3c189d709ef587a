package inputfile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/uniperf/uniperf/datasets/inputfile"
)

func ExampleReadFile() {
	dir, _ := os.MkdirTemp("", "inputfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "k.knl")
	os.WriteFile(path, []byte("kernel"), 0o644)

	data, err := inputfile.ReadFile(path)
	fmt.Printf("%q %v\n", data, err)
	_, err = inputfile.ReadFile("/dev/zero")
	fmt.Println(err)
	// Output:
	// "kernel" <nil>
	// /dev/zero: a device, not a regular file
}

func ExampleReadText() {
	dir, _ := os.MkdirTemp("", "inputfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "k.knl")
	os.WriteFile(path, []byte("kernel\x00k"), 0o644)

	_, err := inputfile.ReadText(path)
	fmt.Println(strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
	// Output:
	// k.knl: byte 6 is NUL: not a text file
}
