// One transformer encoder block in bf16 (BERT's layout): 128 tokens of
// width 256, 4 attention heads of 64, a feed-forward layer of 1024 with
// GELU, residual connections and post-layer norms. Weights are arguments
// marked as parameters (ttc compile --random-params SEED, or --param).
module @encoder {
  func.func @forward(%x: tensor<128x256xbf16> loc("x"),
      %wq: tensor<256x256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.q.weight"),
      %bq: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.q.bias"),
      %wk: tensor<256x256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.k.weight"),
      %bk: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.k.bias"),
      %wv: tensor<256x256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.v.weight"),
      %bv: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.v.bias"),
      %wo: tensor<256x256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.out.weight"),
      %bo: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("attn.out.bias"),
      %g1: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("norm1.weight"),
      %e1: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("norm1.bias"),
      %w1: tensor<256x1024xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("ffn.fc1.weight"),
      %b1: tensor<1024xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("ffn.fc1.bias"),
      %w2: tensor<1024x256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("ffn.fc2.weight"),
      %b2: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("ffn.fc2.bias"),
      %g2: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("norm2.weight"),
      %e2: tensor<256xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("norm2.bias")) -> tensor<128x256xbf16> {
    %q = "ttir.linear"(%x, %wq, %bq) : (tensor<128x256xbf16>, tensor<256x256xbf16>, tensor<256xbf16>) -> tensor<128x256xbf16> loc("attn.q")
    %k = "ttir.linear"(%x, %wk, %bk) : (tensor<128x256xbf16>, tensor<256x256xbf16>, tensor<256xbf16>) -> tensor<128x256xbf16> loc("attn.k")
    %v = "ttir.linear"(%x, %wv, %bv) : (tensor<128x256xbf16>, tensor<256x256xbf16>, tensor<256xbf16>) -> tensor<128x256xbf16> loc("attn.v")
    %q3 = "ttir.reshape"(%q) <{shape = [128 : i32, 4 : i32, 64 : i32]}> : (tensor<128x256xbf16>) -> tensor<128x4x64xbf16> loc("attn.q.heads")
    %k3 = "ttir.reshape"(%k) <{shape = [128 : i32, 4 : i32, 64 : i32]}> : (tensor<128x256xbf16>) -> tensor<128x4x64xbf16> loc("attn.k.heads")
    %v3 = "ttir.reshape"(%v) <{shape = [128 : i32, 4 : i32, 64 : i32]}> : (tensor<128x256xbf16>) -> tensor<128x4x64xbf16> loc("attn.v.heads")
    %qh = "ttir.permute"(%q3) <{permutation = array<i64: 1, 0, 2>}> : (tensor<128x4x64xbf16>) -> tensor<4x128x64xbf16> loc("attn.q.t")
    %kh = "ttir.permute"(%k3) <{permutation = array<i64: 1, 0, 2>}> : (tensor<128x4x64xbf16>) -> tensor<4x128x64xbf16> loc("attn.k.t")
    %vh = "ttir.permute"(%v3) <{permutation = array<i64: 1, 0, 2>}> : (tensor<128x4x64xbf16>) -> tensor<4x128x64xbf16> loc("attn.v.t")
    %s = "ttir.matmul"(%qh, %kh) <{transpose_b = true}> : (tensor<4x128x64xbf16>, tensor<4x128x64xbf16>) -> tensor<4x128x128xbf16> loc("attn.scores")
    %c = "ttir.constant"() <{value = dense<1.250000e-01> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16> loc("attn.scale")
    %ss = "ttir.multiply"(%s, %c) : (tensor<4x128x128xbf16>, tensor<1x1x1xbf16>) -> tensor<4x128x128xbf16> loc("attn.scaled")
    %p = "ttir.softmax"(%ss) <{dimension = -1 : si32}> : (tensor<4x128x128xbf16>) -> tensor<4x128x128xbf16> loc("attn.probs")
    %o = "ttir.matmul"(%p, %vh) : (tensor<4x128x128xbf16>, tensor<4x128x64xbf16>) -> tensor<4x128x64xbf16> loc("attn.context")
    %ot = "ttir.permute"(%o) <{permutation = array<i64: 1, 0, 2>}> : (tensor<4x128x64xbf16>) -> tensor<128x4x64xbf16> loc("attn.context.t")
    %o2 = "ttir.reshape"(%ot) <{shape = [128 : i32, 256 : i32]}> : (tensor<128x4x64xbf16>) -> tensor<128x256xbf16> loc("attn.merge")
    %a = "ttir.linear"(%o2, %wo, %bo) : (tensor<128x256xbf16>, tensor<256x256xbf16>, tensor<256xbf16>) -> tensor<128x256xbf16> loc("attn.out")
    %r1 = "ttir.add"(%x, %a) : (tensor<128x256xbf16>, tensor<128x256xbf16>) -> tensor<128x256xbf16> loc("residual1")
    %n1 = "ttir.layer_norm"(%r1, %g1, %e1) <{normalized_shape = array<i64: 256>, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) -> tensor<128x256xbf16> loc("norm1")
    %f1 = "ttir.linear"(%n1, %w1, %b1) : (tensor<128x256xbf16>, tensor<256x1024xbf16>, tensor<1024xbf16>) -> tensor<128x1024xbf16> loc("ffn.fc1")
    %f1a = "ttir.gelu"(%f1) : (tensor<128x1024xbf16>) -> tensor<128x1024xbf16> loc("ffn.act")
    %f2 = "ttir.linear"(%f1a, %w2, %b2) : (tensor<128x1024xbf16>, tensor<1024x256xbf16>, tensor<256xbf16>) -> tensor<128x256xbf16> loc("ffn.fc2")
    %r2 = "ttir.add"(%n1, %f2) : (tensor<128x256xbf16>, tensor<128x256xbf16>) -> tensor<128x256xbf16> loc("residual2")
    %y = "ttir.layer_norm"(%r2, %g2, %e2) <{normalized_shape = array<i64: 256>, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<128x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) -> tensor<128x256xbf16> loc("norm2")
    return %y : tensor<128x256xbf16>
  }
}
