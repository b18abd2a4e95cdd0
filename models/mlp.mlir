// A three-layer MLP classifier in bf16: 32 samples of 256 features, two
// hidden layers of 512 with GELU, layer norm before the head, softmax
// over 10 classes. Weights are arguments marked as parameters: ttc
// compile gives them values (--param NAME=X.npy, or --random-params SEED).
module @mlp {
  func.func @forward(%x: tensor<32x256xbf16> loc("x"),
      %w1: tensor<256x512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("fc1.weight"),
      %b1: tensor<512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("fc1.bias"),
      %w2: tensor<512x512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("fc2.weight"),
      %b2: tensor<512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("fc2.bias"),
      %g: tensor<512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("norm.weight"),
      %beta: tensor<512xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("norm.bias"),
      %w3: tensor<512x10xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("head.weight"),
      %b3: tensor<10xbf16> {ttcore.argument_type = #ttcore.argument_type<parameter>} loc("head.bias")) -> tensor<32x10xbf16> {
    %0 = "ttir.linear"(%x, %w1, %b1) : (tensor<32x256xbf16>, tensor<256x512xbf16>, tensor<512xbf16>) -> tensor<32x512xbf16> loc("fc1")
    %1 = "ttir.gelu"(%0) : (tensor<32x512xbf16>) -> tensor<32x512xbf16> loc("act1")
    %2 = "ttir.linear"(%1, %w2, %b2) : (tensor<32x512xbf16>, tensor<512x512xbf16>, tensor<512xbf16>) -> tensor<32x512xbf16> loc("fc2")
    %3 = "ttir.gelu"(%2) : (tensor<32x512xbf16>) -> tensor<32x512xbf16> loc("act2")
    %4 = "ttir.layer_norm"(%3, %g, %beta) <{normalized_shape = array<i64: 512>, epsilon = 1.0e-05 : f32, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<32x512xbf16>, tensor<512xbf16>, tensor<512xbf16>) -> tensor<32x512xbf16> loc("norm")
    %5 = "ttir.linear"(%4, %w3, %b3) : (tensor<32x512xbf16>, tensor<512x10xbf16>, tensor<10xbf16>) -> tensor<32x10xbf16> loc("head")
    %6 = "ttir.softmax"(%5) <{dimension = -1 : si32}> : (tensor<32x10xbf16>) -> tensor<32x10xbf16> loc("probs")
    return %6 : tensor<32x10xbf16>
  }
}
