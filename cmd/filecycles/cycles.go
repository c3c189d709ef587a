package main

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path/filepath"
	"sort"
)

// use is where one file first uses a declaration of another.
type use struct {
	at   token.Position
	name string
}

// checkCycles writes one line per pair of files that use each other in the
// listed packages not in skip and returns their number.
func checkCycles(pkgs *packages, skip map[string]bool, stdout io.Writer) (int, error) {
	fset := token.NewFileSet()
	gc := importer.ForCompiler(fset, "gc", pkgs.open)
	found := 0
	for _, p := range pkgs.listed {
		if skip[p.ImportPath] || len(p.GoFiles) == 0 {
			continue
		}
		uses, err := fileUses(fset, gc, p)
		if err != nil {
			return found, err
		}
		for _, line := range cycles(uses) {
			fmt.Fprintf(stdout, "%s: %s\n", p.ImportPath, line)
			found++
		}
	}
	return found, nil
}

// fileUses type-checks p from source and maps each pair of its files to the
// first place the first uses a package-level declaration or a method
// declared in the second.
func fileUses(fset *token.FileSet, gc types.Importer, p *pkg) (map[[2]string]use, error) {
	var files []*ast.File
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: mappedImporter{gc, p.ImportMap}}
	tp, err := conf.Check(p.ImportPath, fset, files, info)
	if err != nil {
		return nil, err
	}
	uses := map[[2]string]use{}
	for id, obj := range info.Uses {
		if obj.Pkg() != tp || !declaredAtTop(tp, obj) {
			continue
		}
		from, to := fset.Position(id.Pos()), fset.Position(obj.Pos())
		if from.Filename == to.Filename {
			continue
		}
		key := [2]string{filepath.Base(from.Filename), filepath.Base(to.Filename)}
		if u, ok := uses[key]; !ok || from.Offset < u.at.Offset {
			uses[key] = use{from, id.Name}
		}
	}
	return uses, nil
}

// declaredAtTop reports whether obj is declared at package level or is a
// method, whose declaration is at package level too.
func declaredAtTop(tp *types.Package, obj types.Object) bool {
	if obj.Parent() == tp.Scope() {
		return true
	}
	f, ok := obj.(*types.Func)
	return ok && f.Signature().Recv() != nil
}

// cycles describes each pair of files that use each other, in order.
func cycles(uses map[[2]string]use) []string {
	var lines []string
	for key, ab := range uses {
		a, b := key[0], key[1]
		ba, ok := uses[[2]string{b, a}]
		if !ok || a > b {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s <-> %s (%s:%d uses %s, %s:%d uses %s)",
			a, b, a, ab.at.Line, ab.name, b, ba.at.Line, ba.name))
	}
	sort.Strings(lines)
	return lines
}

// mappedImporter imports through a package's ImportMap, which maps an
// import path as written to the package go list resolved it to.
type mappedImporter struct {
	types.Importer
	importMap map[string]string
}

func (m mappedImporter) Import(path string) (*types.Package, error) {
	if mapped, ok := m.importMap[path]; ok {
		path = mapped
	}
	return m.Importer.Import(path)
}
