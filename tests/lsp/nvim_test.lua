-- Headless Neovim (0.7's built-in client) drives `npuify lsp`: open a GPU
-- script, get diagnostics, apply a quick fix through codeAction, type a
-- new CUDA call and see it diagnosed. Writes "ok ..."/"FAIL ..." lines
-- to $OUT_FILE; the shell suite counts them.
local out = assert(io.open(os.getenv('OUT_FILE'), 'w'))
local function check(cond, what)
  out:write((cond and 'ok   ' or 'FAIL ') .. what .. '\n')
  out:flush()
end

local file = os.getenv('GPU_FILE')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local client_id = vim.lsp.start_client({
  cmd = { os.getenv('NPUIFY'), 'lsp', '--debounce', '0',
          '--explain-dir', os.getenv('EXPLAIN_DIR') },
  root_dir = vim.fn.fnamemodify(file, ':h'),
  name = 'npuify',
})
check(client_id ~= nil, 'the client started npuify lsp')
vim.lsp.buf_attach_client(buf, client_id)

local function codes()
  local seen = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(seen, tostring(d.code) .. '@' .. d.lnum)
  end
  table.sort(seen)
  return table.concat(seen, ' ')
end

local got = vim.wait(10000, function()
  return #vim.diagnostic.get(buf) > 0
end, 20)
check(got, 'diagnostics arrived for the opened file')
check(codes():find('NPU101@2', 1, true) ~= nil,
      'NPU101 (.cuda()) on line 3: ' .. codes())

-- quick fix at .cuda() on line 3 (0-based 2)
local line = vim.api.nvim_buf_get_lines(buf, 2, 3, false)[1]
local col = line:find('cuda', 1, true) - 1
local params = {
  textDocument = vim.lsp.util.make_text_document_params(buf),
  range = { start = { line = 2, character = col },
            ['end'] = { line = 2, character = col } },
  context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, 2) },
}
local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params,
                                     10000)
local action
for _, r in pairs(res or {}) do
  for _, a in ipairs(r.result or {}) do
    if a.kind == 'quickfix' and a.edit then action = a end
  end
end
check(action ~= nil, 'codeAction returned a quick fix')
if action then
  vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
end
local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
check(text:find('.npu()', 1, true) ~= nil and
      text:find('import torch_npu', 1, true) ~= nil,
      'the quick fix rewrote .cuda() and added import torch_npu')

-- diagnostics follow the edit: the fixed line is clean
got = vim.wait(10000, function()
  return codes():find('NPU101@3', 1, true) == nil and
         codes():find('NPU101', 1, true) == nil
end, 20)
check(got, 'after the fix no NPU101 is left: ' .. codes())

-- type a new CUDA call at the end
local n = vim.api.nvim_buf_line_count(buf)
vim.api.nvim_buf_set_lines(buf, n, n, false, { 'w = torch.zeros(2).cuda()' })
got = vim.wait(10000, function()
  return codes():find('NPU101@' .. n, 1, true) ~= nil
end, 20)
check(got, 'the typed .cuda() on line ' .. (n + 1) .. ' is diagnosed: ' ..
      codes())

vim.lsp.stop_client(client_id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
check(vim.lsp.get_client_by_id(client_id) == nil, 'the server shut down')
out:close()
vim.cmd('qa!')
