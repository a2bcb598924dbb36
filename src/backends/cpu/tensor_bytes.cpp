#include "backends/cpu/tensor_bytes.h"

#include <cstdint>
#include <cstring>

namespace hlograph::cpu {
namespace {

void PutSize(std::string& out, uint64_t n) { out.append(reinterpret_cast<const char*>(&n), sizeof(n)); }

void PutText(std::string& out, std::string_view text) {
  PutSize(out, text.size());
  out.append(text);
}

// Each value: its type's text, then its elements (a tuple) or its bytes.
void Encode(std::string& out, const Tensor& t) {
  PutText(out, t.type().ToString());
  if (t.type().IsTuple()) {
    PutSize(out, t.tuple_elements().size());
    for (const Tensor& e : t.tuple_elements()) Encode(out, e);
    return;
  }
  PutText(out, std::string_view(reinterpret_cast<const char*>(t.bytes()), t.byte_size()));
}

class Reader {
 public:
  explicit Reader(std::string_view bytes) : rest_(bytes) {}

  StatusOr<uint64_t> Size() {
    uint64_t n = 0;
    if (rest_.size() < sizeof(n)) return Status::Error("the bytes of another process's values end early");
    std::memcpy(&n, rest_.data(), sizeof(n));
    rest_.remove_prefix(sizeof(n));
    return n;
  }

  StatusOr<std::string_view> Text() {
    HLOGRAPH_ASSIGN(const uint64_t n, Size());
    if (rest_.size() < n) return Status::Error("the bytes of another process's values end early");
    std::string_view text = rest_.substr(0, n);
    rest_.remove_prefix(n);
    return text;
  }

  StatusOr<Tensor> Decode(const Tensor& like) {
    HLOGRAPH_ASSIGN(const std::string_view type, Text());
    const std::string expected = like.type().ToString();
    if (type != expected) {
      return Status::Error("another process's device passed a " + std::string(type) + " where this one passed a " +
                           expected);
    }
    if (like.type().IsTuple()) {
      HLOGRAPH_ASSIGN(const uint64_t n, Size());
      if (n != like.tuple_elements().size()) return Status::Error("a tuple of another size from another process");
      std::vector<Tensor> elements;
      for (const Tensor& e : like.tuple_elements()) {
        HLOGRAPH_ASSIGN(Tensor element, Decode(e));
        elements.push_back(std::move(element));
      }
      return Tensor::Tuple(std::move(elements));
    }
    HLOGRAPH_ASSIGN(const std::string_view data, Text());
    Tensor out(like.type());
    if (data.size() != out.byte_size()) {
      return Status::Error("another process's " + expected + " has " + std::to_string(data.size()) + " bytes, not " +
                           std::to_string(out.byte_size()));
    }
    if (!data.empty()) std::memcpy(out.mutable_bytes(), data.data(), data.size());
    return out;
  }

  bool done() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

}  // namespace

std::string EncodeTensors(const std::vector<Tensor>& values) {
  std::string out;
  PutSize(out, values.size());
  for (const Tensor& t : values) Encode(out, t);
  return out;
}

StatusOr<std::vector<Tensor>> DecodeTensors(std::string_view bytes, const std::vector<Tensor>& like) {
  Reader reader(bytes);
  HLOGRAPH_ASSIGN(const uint64_t n, reader.Size());
  if (n != like.size()) {
    return Status::Error("another process's device passed " + std::to_string(n) + " values where this one passed " +
                         std::to_string(like.size()));
  }
  std::vector<Tensor> out;
  for (const Tensor& l : like) {
    HLOGRAPH_ASSIGN(Tensor t, reader.Decode(l));
    out.push_back(std::move(t));
  }
  if (!reader.done()) return Status::Error("the bytes of another process's values run past its last value");
  return out;
}

}  // namespace hlograph::cpu
