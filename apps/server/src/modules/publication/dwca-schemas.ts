/**
 * The XML schemas the validator checks `meta.xml` and `eml.xml` against (docs/publication.md#the-validator).
 *
 * They are written for Bathylog from the published descriptions, not copies of the upstream files:
 * the TDWG Darwin Core text guide's `tdwg_dwc_text.xsd` (the archive descriptor: every element and
 * attribute the guide defines, same namespace and structure), and the part of the GBIF metadata
 * profile 1.3 (EML 2.2.0) that a Bathylog archive uses, with the profile's required elements
 * (title, creator, contact, a licence in intellectualRights) and its element order. The upstream
 * profile imports further schemas over the network; these validate offline, on the ship.
 */

export const dwcTextXsd = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:arch="http://rs.tdwg.org/dwc/text/"
  targetNamespace="http://rs.tdwg.org/dwc/text/" elementFormDefault="qualified" attributeFormDefault="unqualified">
  <xs:element name="archive">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="core" type="arch:coreFileType"/>
        <xs:element name="extension" type="arch:extensionFileType" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="metadata" type="xs:anyURI"/>
    </xs:complexType>
  </xs:element>
  <xs:attributeGroup name="fileAttributes">
    <xs:attribute name="linesTerminatedBy" type="xs:string" default="\\n"/>
    <xs:attribute name="fieldsTerminatedBy" type="xs:string" default=","/>
    <xs:attribute name="fieldsEnclosedBy" type="xs:string" default="&quot;"/>
    <xs:attribute name="ignoreHeaderLines" type="xs:integer" default="0"/>
    <xs:attribute name="rowType" type="xs:anyURI" use="required"/>
    <xs:attribute name="encoding" type="xs:string" default="UTF-8"/>
    <xs:attribute name="dateFormat" type="xs:string" default="YYYY-MM-DD"/>
  </xs:attributeGroup>
  <xs:complexType name="fileType">
    <xs:sequence>
      <xs:element name="files">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="location" type="xs:string" maxOccurs="unbounded"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:sequence>
    <xs:attributeGroup ref="arch:fileAttributes"/>
  </xs:complexType>
  <xs:complexType name="coreFileType">
    <xs:complexContent>
      <xs:extension base="arch:fileType">
        <xs:sequence>
          <xs:element name="id" type="arch:idFieldType" minOccurs="0"/>
          <xs:element name="field" type="arch:fieldType" maxOccurs="unbounded"/>
        </xs:sequence>
      </xs:extension>
    </xs:complexContent>
  </xs:complexType>
  <xs:complexType name="extensionFileType">
    <xs:complexContent>
      <xs:extension base="arch:fileType">
        <xs:sequence>
          <xs:element name="coreid" type="arch:idFieldType"/>
          <xs:element name="field" type="arch:fieldType" maxOccurs="unbounded"/>
        </xs:sequence>
      </xs:extension>
    </xs:complexContent>
  </xs:complexType>
  <xs:complexType name="idFieldType">
    <xs:attribute name="index" type="xs:nonNegativeInteger"/>
  </xs:complexType>
  <xs:complexType name="fieldType">
    <xs:attribute name="index" type="xs:nonNegativeInteger"/>
    <xs:attribute name="term" type="xs:anyURI" use="required"/>
    <xs:attribute name="default" type="xs:string"/>
    <xs:attribute name="vocabulary" type="xs:anyURI"/>
    <xs:attribute name="delimitedBy" type="xs:string"/>
  </xs:complexType>
</xs:schema>
`;

export const emlXsd = `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:eml="https://eml.ecoinformatics.org/eml-2.2.0"
  targetNamespace="https://eml.ecoinformatics.org/eml-2.2.0" elementFormDefault="unqualified" attributeFormDefault="unqualified">
  <xs:element name="eml">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="dataset" type="eml:DatasetType"/>
        <xs:element name="additionalMetadata" type="eml:AdditionalMetadataType" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="packageId" type="eml:NonEmpty" use="required"/>
      <xs:attribute name="system" type="eml:NonEmpty" use="required"/>
      <xs:attribute name="scope" type="xs:string"/>
      <xs:anyAttribute namespace="http://www.w3.org/XML/1998/namespace http://www.w3.org/2001/XMLSchema-instance" processContents="skip"/>
    </xs:complexType>
  </xs:element>
  <xs:simpleType name="NonEmpty">
    <xs:restriction base="xs:string"><xs:minLength value="1"/><xs:pattern value=".*\\S.*"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Date">
    <xs:union memberTypes="xs:date xs:gYear"/>
  </xs:simpleType>
  <xs:complexType name="I18nText">
    <xs:simpleContent>
      <xs:extension base="eml:NonEmpty">
        <xs:anyAttribute namespace="http://www.w3.org/XML/1998/namespace" processContents="skip"/>
      </xs:extension>
    </xs:simpleContent>
  </xs:complexType>
  <xs:complexType name="Para" mixed="true">
    <xs:sequence>
      <xs:element name="ulink" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType>
          <xs:sequence><xs:element name="citetitle" type="eml:NonEmpty"/></xs:sequence>
          <xs:attribute name="url" type="xs:anyURI" use="required"/>
        </xs:complexType>
      </xs:element>
    </xs:sequence>
  </xs:complexType>
  <xs:complexType name="TextType">
    <xs:sequence>
      <xs:element name="para" type="eml:Para" maxOccurs="unbounded"/>
    </xs:sequence>
  </xs:complexType>
  <xs:complexType name="PersonName">
    <xs:sequence>
      <xs:element name="givenName" type="eml:NonEmpty" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="surName" type="eml:NonEmpty"/>
    </xs:sequence>
  </xs:complexType>
  <xs:complexType name="Party">
    <xs:sequence>
      <xs:choice maxOccurs="2">
        <xs:element name="individualName" type="eml:PersonName"/>
        <xs:element name="organizationName" type="eml:NonEmpty"/>
        <xs:element name="positionName" type="eml:NonEmpty"/>
      </xs:choice>
      <xs:element name="electronicMailAddress" type="eml:NonEmpty" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence>
  </xs:complexType>
  <xs:complexType name="DatasetType">
    <xs:sequence>
      <xs:element name="alternateIdentifier" type="eml:NonEmpty" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="title" type="eml:I18nText" maxOccurs="unbounded"/>
      <xs:element name="creator" type="eml:Party" maxOccurs="unbounded"/>
      <xs:element name="metadataProvider" type="eml:Party" minOccurs="0" maxOccurs="unbounded"/>
      <xs:element name="pubDate" type="eml:Date" minOccurs="0"/>
      <xs:element name="language" type="eml:NonEmpty" minOccurs="0"/>
      <xs:element name="abstract" type="eml:TextType"/>
      <xs:element name="keywordSet" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="keyword" type="eml:NonEmpty" maxOccurs="unbounded"/>
            <xs:element name="keywordThesaurus" type="eml:NonEmpty"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="intellectualRights" type="eml:TextType"/>
      <xs:element name="coverage" type="eml:Coverage" minOccurs="0"/>
      <xs:element name="maintenance" minOccurs="0">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="description" type="eml:TextType"/>
            <xs:element name="maintenanceUpdateFrequency" type="eml:NonEmpty"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="contact" type="eml:Party" maxOccurs="unbounded"/>
      <xs:element name="project" minOccurs="0">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="title" type="eml:NonEmpty"/>
            <xs:element name="personnel" maxOccurs="unbounded">
              <xs:complexType>
                <xs:sequence>
                  <xs:element name="individualName" type="eml:PersonName"/>
                  <xs:element name="role" type="eml:NonEmpty"/>
                </xs:sequence>
              </xs:complexType>
            </xs:element>
            <xs:element name="abstract" type="eml:TextType" minOccurs="0"/>
          </xs:sequence>
          <xs:attribute name="id" type="eml:NonEmpty"/>
        </xs:complexType>
      </xs:element>
    </xs:sequence>
  </xs:complexType>
  <xs:simpleType name="Latitude">
    <xs:restriction base="xs:decimal"><xs:minInclusive value="-90"/><xs:maxInclusive value="90"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Longitude">
    <xs:restriction base="xs:decimal"><xs:minInclusive value="-180"/><xs:maxInclusive value="180"/></xs:restriction>
  </xs:simpleType>
  <xs:complexType name="Coverage">
    <xs:sequence>
      <xs:element name="geographicCoverage" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="geographicDescription" type="eml:NonEmpty"/>
            <xs:element name="boundingCoordinates">
              <xs:complexType>
                <xs:sequence>
                  <xs:element name="westBoundingCoordinate" type="eml:Longitude"/>
                  <xs:element name="eastBoundingCoordinate" type="eml:Longitude"/>
                  <xs:element name="northBoundingCoordinate" type="eml:Latitude"/>
                  <xs:element name="southBoundingCoordinate" type="eml:Latitude"/>
                </xs:sequence>
              </xs:complexType>
            </xs:element>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="temporalCoverage" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="rangeOfDates">
              <xs:complexType>
                <xs:sequence>
                  <xs:element name="beginDate"><xs:complexType><xs:sequence><xs:element name="calendarDate" type="eml:Date"/></xs:sequence></xs:complexType></xs:element>
                  <xs:element name="endDate"><xs:complexType><xs:sequence><xs:element name="calendarDate" type="eml:Date"/></xs:sequence></xs:complexType></xs:element>
                </xs:sequence>
              </xs:complexType>
            </xs:element>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="taxonomicCoverage" minOccurs="0" maxOccurs="unbounded">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="taxonomicClassification" maxOccurs="unbounded">
              <xs:complexType>
                <xs:sequence>
                  <xs:element name="taxonRankName" type="eml:NonEmpty"/>
                  <xs:element name="taxonRankValue" type="eml:NonEmpty"/>
                </xs:sequence>
              </xs:complexType>
            </xs:element>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:sequence>
  </xs:complexType>
  <xs:complexType name="AdditionalMetadataType">
    <xs:sequence>
      <xs:element name="metadata">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="gbif">
              <xs:complexType>
                <xs:sequence>
                  <xs:element name="dateStamp" type="xs:dateTime"/>
                  <xs:element name="hierarchyLevel" type="eml:NonEmpty"/>
                </xs:sequence>
              </xs:complexType>
            </xs:element>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:sequence>
  </xs:complexType>
</xs:schema>
`;
