import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'hello "world", <ok> & fine\n'
        code = 200
        if 'notfound' in self.path: code = 404
        if 'redir' in self.path:
            self.send_response(302); self.send_header('Location','/x'); self.send_header('Content-Length','0'); self.end_headers(); return
        self.send_response(code)
        self.send_header('Content-Type','text/plain')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self,*a): pass
http.server.ThreadingHTTPServer(('127.0.0.1', 18977), H).serve_forever()
