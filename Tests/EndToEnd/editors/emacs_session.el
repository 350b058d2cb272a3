;;; emacs_session.el --- drive flowlayoutd through Emacs's jsonrpc.el  -*- lexical-binding: t -*-

;; One flowlayoutd session through jsonrpc.el (the transport of Eglot),
;; unmodified: a `jsonrpc-process-connection' over `make-process', as Eglot
;; builds it, `jsonrpc-request' for every request and `jsonrpc-notify' for
;; `initialized' and `exit'.  Run by test_editor_clients.py as
;;   emacs --batch -Q -l emacs_session.el
;; with these environment variables:
;;   FLOWLAYOUTD        the daemon to spawn
;;   FLOWLAYOUT_STEPS   a JSON file: [{"method": ..., "params": {...}}, ...]
;;   FLOWLAYOUT_OUT     where to write the report, a JSON object:
;;     initialize  the initialize result
;;     outcomes    one {"result": ...} or {"error": {code, message, data}} per step
;;     shutdown    shutdown's result (null)
;;     exit        {"status": ..., "event": ...}: the daemon's exit status
;;                 (`process-exit-status') and how it ended, after `exit'
;;     stderr      what the daemon wrote to stderr (jsonrpc.el's stderr buffer)
;;     failure     set when something went wrong in this script
;; Emacs exits with status 1 if the script itself failed.
;;
;; jsonrpc.el (1.0.14 in Emacs 28) writes `"jsonrpc":"2.0"' into every
;; message itself (`jsonrpc-connection-send'), frames it with a
;; Content-Length header only, and numbers requests 1, 2, ...  METHOD must be
;; a symbol (a keyword's leading colon is dropped): given a string,
;; `jsonrpc-connection-send' would replace it with nil, so each step's method
;; is interned here.  Objects are plists; `{}' has to be a hash table, since
;; jsonrpc.el encodes nil as null.

(require 'jsonrpc)
(require 'cl-lib)

(defconst flowlayout-timeout 5 "Seconds any request or wait may take.")

(defun flowlayout-read-json-file (file)
  (with-temp-buffer
    (insert-file-contents file)
    ;; The same representation jsonrpc.el reads answers into.
    (json-parse-buffer :object-type 'plist :null-object nil :false-object :json-false)))

(defun flowlayout-write-json-file (file object)
  (with-temp-file file
    (insert (json-serialize object :null-object nil :false-object :json-false))))

(defun flowlayout-error-outcome (err)
  "ERR is a `jsonrpc-error' condition: (jsonrpc-error MSG . ALIST)."
  (let ((alist (cddr err)))
    (list :error (list :code (alist-get 'jsonrpc-error-code alist)
                       :message (alist-get 'jsonrpc-error-message alist)
                       :data (alist-get 'jsonrpc-error-data alist)))))

(let* ((out (getenv "FLOWLAYOUT_OUT"))
       (report (list :outcomes []))
       (ok nil))
  (condition-case failure
      (let* ((steps (flowlayout-read-json-file (getenv "FLOWLAYOUT_STEPS")))
             (daemon (getenv "FLOWLAYOUTD"))
             (ended nil)
             (outcomes nil)
             (conn
              (make-instance
               'jsonrpc-process-connection
               :name "flowlayoutd"
               :process
               (lambda ()
                 (make-process
                  :name "flowlayoutd"
                  :command (list daemon)
                  :connection-type 'pipe
                  :coding 'utf-8-emacs-unix
                  :noquery t
                  ;; jsonrpc.el expects exactly this stderr buffer name.
                  :stderr (get-buffer-create "*flowlayoutd stderr*")))
               :on-shutdown
               (lambda (c)
                 (let ((proc (jsonrpc--process c)))
                   (setq ended (list :status (process-exit-status proc)
                                     :event (symbol-name (process-status proc)))))))))
        (setq report
              (plist-put report :initialize
                         (jsonrpc-request conn 'initialize
                                          (list :processId (emacs-pid)
                                                :clientInfo (list :name "Emacs jsonrpc.el"
                                                                  :version emacs-version)
                                                :capabilities (make-hash-table))
                                          :timeout flowlayout-timeout)))
        (jsonrpc-notify conn 'initialized (make-hash-table))
        (cl-loop for step across steps
                 for method = (intern (plist-get step :method))
                 do (push (condition-case err
                              (list :result (jsonrpc-request conn method (plist-get step :params)
                                                             :timeout flowlayout-timeout))
                            (jsonrpc-error (flowlayout-error-outcome err)))
                          outcomes))
        (setq report (plist-put report :outcomes (vconcat (nreverse outcomes))))
        (setq report (plist-put report :shutdown
                                (jsonrpc-request conn 'shutdown nil :timeout flowlayout-timeout)))
        (jsonrpc-notify conn 'exit nil)
        (with-timeout (flowlayout-timeout (error "the daemon did not exit after `exit'"))
          (while (not ended)
            (accept-process-output nil 0.05)))
        (setq report (plist-put report :exit ended))
        (setq report (plist-put report :stderr
                                (with-current-buffer (jsonrpc-stderr-buffer conn)
                                  (buffer-substring-no-properties (point-min) (point-max)))))
        (setq ok t))
    (error (setq report (plist-put report :failure (format "%S" failure)))))
  (flowlayout-write-json-file out report)
  (kill-emacs (if ok 0 1)))

;;; emacs_session.el ends here
