package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["nginxdav"] = cmdNginxDAV
	scriptCmds["davserver"] = cmdDAVServer
	scriptCmds["keypair"] = cmdKeyPair
}

// nginxConf is a WebDAV store on loopback: what a team puts in front of a directory to share
// gauntlet's cache, and the same GET/PUT protocol bazel-remote speaks.
const nginxConf = `%s
worker_processes 1;
error_log %[2]s/error.log;
pid %[2]s/nginx.pid;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path %[2]s/tmp/body;
  proxy_temp_path %[2]s/tmp/proxy;
  fastcgi_temp_path %[2]s/tmp/fastcgi;
  uwsgi_temp_path %[2]s/tmp/uwsgi;
  scgi_temp_path %[2]s/tmp/scgi;
  server {
    listen 127.0.0.1:%[3]d;
    location / {
      root %[2]s/data;
      dav_methods PUT;
      create_full_put_path on;
      dav_access user:rw;
    }
  }
}
`

// nginxPath finds Debian's nginx, which is not on a non-root PATH; "" when it is not installed.
func nginxPath() string {
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	return ""
}

// cmdNginxDAV starts nginx (Debian's package) as a WebDAV store under $WORK/nginx and sets
// NGINX_URL to it; nginx is stopped when the script ends. Scripts skip without it ([!nginx]). "nginxdav stop" stops it early, for the server-down case;
// "nginxdav FILE..." also writes the URL into each FILE in place of ${NGINX_URL}.
func cmdNginxDAV(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: nginxdav [stop]")
	}
	prefix := filepath.Join(ts.Getenv("WORK"), "nginx")
	if len(args) == 1 && args[0] == "stop" {
		pid := strings.TrimSpace(ts.ReadFile(filepath.Join(prefix, "nginx.pid")))
		ts.Check(exec.Command("kill", "-TERM", pid).Run())
		return
	}
	bin := nginxPath()
	if bin == "" {
		ts.Fatalf("nginx is not installed: guard the script with [!nginx] skip")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for _, d := range []string{"tmp", "data"} {
		ts.Check(os.MkdirAll(filepath.Join(prefix, d), 0o755))
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root;" // workers of a root master would drop to nobody, who cannot write here
	}
	ts.Check(os.WriteFile(filepath.Join(prefix, "nginx.conf"), fmt.Appendf(nil, nginxConf, user, prefix, port), 0o644))
	cmd := exec.Command(bin, "-p", prefix, "-c", filepath.Join(prefix, "nginx.conf"), "-g", "daemon off;")
	cmd.Stderr = os.Stderr
	ts.Check(cmd.Start())
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	ts.Defer(func() {
		cmd.Process.Kill()
		<-done
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(20 * time.Second); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		select {
		case <-done:
			log, _ := os.ReadFile(filepath.Join(prefix, "error.log"))
			ts.Fatalf("nginx exited at start: %s", log)
		default:
		}
		if time.Now().After(deadline) {
			ts.Fatalf("nginx did not listen on %s", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	url := "http://" + addr + "/gauntlet"
	ts.Setenv("NGINX_URL", url)
	// Files named after the command get the URL in place of ${NGINX_URL}: configs cannot expand it.
	substitute(ts, "NGINX_URL", url, args)
}

// substitute writes value into each file in place of ${name}: configs cannot expand variables.
func substitute(ts *testscript.TestScript, name, value string, files []string) {
	for _, f := range files {
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(strings.ReplaceAll(ts.ReadFile(f), "${"+name+"}", value)), 0o644))
	}
}

// maxDAVBody bounds what the in-process store reads of a PUT: an entry is a few hundred bytes.
const maxDAVBody = 1 << 20

// cmdDAVServer starts, inside the test process, a store on loopback that keeps each PUT body at
// $WORK/dav/PATH and serves it back on GET (404 when absent): the part of WebDAV the remote cache
// uses, for scripts that must run where nginx is not installed (cache_remote.txtar tests the
// real nginx). It sets DAV_URL (ending in /gauntlet) and writes it into each FILE in place of
// ${DAV_URL}; the server stops when the script ends.
func cmdDAVServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: davserver [FILE...]")
	}
	root := filepath.Join(ts.Getenv("WORK"), "dav")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := &http.Server{Handler: davHandler(root), ReadHeaderTimeout: hangGuard(10 * time.Second)}
	done := make(chan struct{})
	go func() { srv.Serve(l); close(done) }()
	ts.Defer(func() {
		srv.Close()
		<-done
	})
	url := "http://" + l.Addr().String() + "/gauntlet"
	ts.Setenv("DAV_URL", url)
	substitute(ts, "DAV_URL", url, args)
}

func davHandler(root string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		clean := path.Clean("/" + r.URL.Path)
		if clean != r.URL.Path || strings.Contains(clean, "..") {
			http.Error(w, "bad path", http.StatusBadRequest)
			return
		}
		file := filepath.Join(root, filepath.FromSlash(clean))
		switch r.Method {
		case http.MethodGet:
			data, err := os.ReadFile(file)
			if errors.Is(err, os.ErrNotExist) {
				http.NotFound(w, r)
				return
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Write(data)
		case http.MethodPut:
			body, err := io.ReadAll(io.LimitReader(r.Body, maxDAVBody))
			if err == nil {
				err = os.MkdirAll(filepath.Dir(file), 0o755)
			}
			if err == nil {
				err = os.WriteFile(file, body, 0o644)
			}
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.WriteHeader(http.StatusCreated)
		default:
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	}
}

// cmdKeyPair reads what `gauntlet cache keygen` printed (saved in KEYS) and sets NAME_PUBLIC and
// NAME_PRIVATE to the two keys; each FILE gets the public key in place of ${NAME_PUBLIC}.
func cmdKeyPair(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: keypair NAME KEYS [FILE...]")
	}
	var public, private string
	for line := range strings.Lines(ts.ReadFile(args[1])) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "ed25519:"):
			public = line
		case strings.HasPrefix(line, "ed25519-private:"):
			private = line
		}
	}
	if public == "" || private == "" {
		ts.Fatalf("keypair: %s holds no key pair", args[1])
	}
	ts.Setenv(args[0]+"_PUBLIC", public)
	ts.Setenv(args[0]+"_PRIVATE", private)
	substitute(ts, args[0]+"_PUBLIC", public, args[2:])
}
