-- Drives one flowlayoutd session through Neovim's built-in LSP client
-- (vim.lsp.start_client, client.request_sync, client.stop), unmodified.
-- Run by test_editor_clients.py as
--   nvim --headless -u NONE -i NONE -n -c 'luafile nvim_session.lua'
-- (Neovim 0.7 has no `-l`) with these environment variables:
--   FLOWLAYOUTD        the daemon to spawn
--   FLOWLAYOUT_STEPS   a JSON file: [{"method": ..., "params": {...}}, ...]
--   FLOWLAYOUT_OUT     where to write the report, a JSON object:
--     initialize  the initialize result (as on_init saw it)
--     outcomes    one {"result": ...} or {"error": {code, message, data}} per step
--     exit        {"code": ..., "signal": ...} from on_exit, after client.stop()
--     failure     set when something went wrong in this script
-- Neovim then quits (with status 1 if the script itself failed).

local timeout_ms = 5000
local report = { outcomes = {} }

-- vim.json.encode, not vim.fn.json_encode: the latter writes floats with
-- six decimals (447.584514612796 becomes 447.584515); vim.json keeps 14
-- significant digits and, for tables it decoded, [] apart from {}.
local function write_report()
  local f = assert(io.open(os.getenv("FLOWLAYOUT_OUT"), "w"))
  f:write(vim.json.encode(report))
  f:close()
end

-- vim.lsp decodes JSON with `luanil = {object = true}`, so a null result
-- arrives as nil; write it back as null.
local function value(v)
  if v == nil then
    return vim.NIL
  end
  return v
end

local ok, err = pcall(function()
  local steps = vim.json.decode(table.concat(vim.fn.readfile(os.getenv("FLOWLAYOUT_STEPS")), "\n"))
  local exited = nil

  local client_id = vim.lsp.start_client({
    name = "flowlayoutd",
    cmd = { os.getenv("FLOWLAYOUTD") },
    on_init = function(_, result)
      report.initialize = result
    end,
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  })
  assert(client_id, "vim.lsp.start_client failed")
  local client = vim.lsp.get_client_by_id(client_id)
  -- start_client sends initialize (and then `initialized`) by itself.
  assert(vim.wait(timeout_ms, function()
    return client.initialized == true
  end, 10), "initialize was not answered")

  for _, step in ipairs(steps) do
    local response, reason = client.request_sync(step.method, step.params, timeout_ms, 0)
    assert(response, string.format("%s: no response (%s)", step.method, tostring(reason)))
    if response.err then
      local e = response.err
      table.insert(report.outcomes, { error = { code = e.code, message = e.message, data = value(e.data) } })
    else
      table.insert(report.outcomes, { result = value(response.result) })
    end
  end

  -- The editor's own shutdown: a `shutdown` request and, if it succeeds,
  -- `exit`; if shutdown failed, Neovim would send SIGTERM instead.
  client.stop()
  assert(vim.wait(timeout_ms, function()
    return exited ~= nil
  end, 10), "the daemon did not exit after client.stop()")
  report.exit = exited
end)

if not ok then
  report.failure = tostring(err)
end
write_report()
vim.cmd(ok and "qall!" or "cquit 1")
